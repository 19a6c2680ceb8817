import { buildSchema, parse, type GraphQLEnumType } from 'graphql';
import { graphName, restSpeller, restSpelling } from '../../../rest-bridge/enum-spelling';

// Type names the checked-in schema/enum-spellings.json knows; a made-up one (Colour) it does not.
const schema = buildSchema(`
  enum ChartType { LINE BAR KPI }
  enum DashboardSortField { NAME CREATED_AT UPDATED_AT }
  enum Colour { RED GREEN }
  type Widget { id: ID! chartType: ChartType! colour: Colour }
  type Board { widgets: [Widget!]! first: Widget }
  type Query { board: Board order(by: DashboardSortField): DashboardSortField chart: ChartType }
`);
const enumType = (name: string) => schema.getType(name) as GraphQLEnumType;

describe('enum spellings between the graph and REST (docs/api.md, Schema style)', () => {
  it('spells a graph name as the contract does, and reads either spelling back', () => {
    expect(restSpelling(enumType('DashboardSortField'), 'CREATED_AT')).toBe('createdDate');
    expect(restSpelling(enumType('ChartType'), 'KPI')).toBe('kpi');
    expect(restSpelling(enumType('Colour'), 'RED')).toBe('RED');
    expect(graphName(enumType('DashboardSortField'), 'createdDate')).toBe('CREATED_AT');
    expect(graphName(enumType('DashboardSortField'), 'CREATED_AT')).toBe('CREATED_AT');
    expect(graphName(enumType('ChartType'), 'Line')).toBe('LINE');
    expect(graphName(enumType('DashboardSortField'), 'created')).toBeUndefined();
    expect(graphName(enumType('Colour'), 'blue')).toBeUndefined();
  });

  it("respells every enum in an answer, through lists, aliases and nulls, and leaves everything else alone", () => {
    const spell = restSpeller(schema, parse('{ board { widgets { id kind: chartType colour } first { chartType } } order(by: NAME) chart }'));
    const data = { board: { widgets: [{ id: 'LINE', kind: 'LINE', colour: 'RED' }, { id: '2', kind: 'KPI', colour: null }], first: null }, order: 'UPDATED_AT', chart: 'BAR' };
    expect(spell(data)).toEqual({ board: { widgets: [{ id: 'LINE', kind: 'line', colour: 'RED' }, { id: '2', kind: 'kpi', colour: null }], first: null }, order: 'updatedDate', chart: 'bar' });
    // The answer the subgraph gave is not changed in place.
    expect(data.board.widgets[0].kind).toBe('LINE');
  });

  it('is the identity for a selection without a respelled enum, and refuses named fragments', () => {
    const data = { board: { first: { colour: 'GREEN' } } };
    expect(restSpeller(schema, parse('{ board { first { colour } } }'))(data)).toBe(data);
    expect(() => restSpeller(schema, parse('{ board { first { ...W } } } fragment W on Widget { chartType }'))).toThrow(/named fragments/);
  });
});
