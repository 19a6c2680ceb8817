import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, getNamedType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLArgument, type GraphQLField, type GraphQLInputField } from 'graphql';
import { schemaDir } from '../../../schema/paths';

/**
 * The graph's style rules that hold today (docs/api.md, "Schema style"), checked over the composed
 * schema so a new field that breaks one fails here, named. The rules still to come (one timestamp
 * naming) join this file as they are applied.
 */
const schema = buildSchema(readFileSync(join(schemaDir(), 'supergraph.graphql'), 'utf8'), { assumeValidSDL: true });
// Federation's own types and the schema's introspection types are not ours to name.
const ours = Object.values(schema.getTypeMap()).filter((type) => !type.name.startsWith('__') && !type.name.startsWith('join__') && !type.name.startsWith('link__'));

/** Every field, input field and argument of our types, by its coordinate. */
function coordinates(): [string, GraphQLField<unknown, unknown> | GraphQLInputField | GraphQLArgument][] {
  const found: [string, GraphQLField<unknown, unknown> | GraphQLInputField | GraphQLArgument][] = [];
  for (const type of ours) {
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        found.push([`${type.name}.${field.name}`, field]);
        for (const arg of field.args) found.push([`${type.name}.${field.name}(${arg.name})`, arg]);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) found.push([`${type.name}.${field.name}`, field]);
    }
  }
  return found;
}

describe('schema style (docs/api.md)', () => {
  it('types every identifier ID: a field, input field or argument named id, …Id or …Ids', () => {
    const identifiers = coordinates().filter(([, member]) => /^id$|Ids?$/.test(member.name));
    expect(identifiers.map(([coordinate]) => coordinate)).toEqual(expect.arrayContaining(['Campaign.locationId', 'Query.revenueBreakdown(locationIds)', 'UpdateDashboardInput.locationId', 'Query.dashboard(id)']));
    expect(identifiers.filter(([, member]) => getNamedType(member.type).name !== 'ID').map(([coordinate, member]) => `${coordinate}: ${String(member.type)}`)).toEqual([]);
  });

  it('types all money SafeInt: a field, input field or argument named …Cents', () => {
    const money = coordinates().filter(([, member]) => /Cents$/.test(member.name));
    expect(money.map(([coordinate]) => coordinate)).toEqual(
      expect.arrayContaining(['RevenueSummary.netCents', 'RevenueBreakdownItem.grossCents', 'Query.revenueBreakdown(minNetCents)', 'IssueGiftCardInput.initialValueCents', 'Campaign.budgetCents']),
    );
    expect(money.filter(([, member]) => getNamedType(member.type).name !== 'SafeInt').map(([coordinate, member]) => `${coordinate}: ${String(member.type)}`)).toEqual([]);
  });

  it('names money …Cents: no field, input field or argument named like an amount, a balance, a price, a budget or an initial value', () => {
    const moneyLike = /(?:amount|balance|price|budget)$|^initialValue$/i;
    expect(coordinates().filter(([, member]) => moneyLike.test(member.name)).map(([coordinate]) => coordinate)).toEqual([]);
  });
});
