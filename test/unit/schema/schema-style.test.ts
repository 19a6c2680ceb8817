import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, getNamedType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLArgument, type GraphQLField, type GraphQLInputField } from 'graphql';
import { schemaDir } from '../../../schema/paths';

/**
 * The graph's style rules that hold today (docs/api.md, "Schema style"), checked over the composed
 * schema so a new field that breaks one fails here, named.
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

  // Instants bounding a range are named for their place in it, as `first`/`after` are: `...At` says when something happened.
  const INSTANTS_NOT_AT: Record<string, string> = {
    'Query.auditEvents(from)': 'lower bound of a range over AuditEvent.occurredAt',
    'Query.auditEvents(to)': 'upper bound of a range over AuditEvent.occurredAt',
  };

  it('names an instant …At and types it DateTime, the one instant scalar', () => {
    expect(schema.getType('DateTimeISO')).toBeUndefined();
    const typed = (name: string) => coordinates().filter(([, member]) => getNamedType(member.type).name === name);
    expect(typed('DateTime').map(([coordinate]) => coordinate)).toEqual(expect.arrayContaining(['Dashboard.createdAt', 'Campaign.startsAt', 'UpdateCampaignInput.endsAt', 'RevenueSummary.firstLineAt']));
    expect(typed('DateTime').filter(([coordinate, member]) => !member.name.endsWith('At') && !(coordinate in INSTANTS_NOT_AT)).map(([coordinate]) => coordinate)).toEqual([]);
    const named = coordinates().filter(([, member]) => /[a-z]At$/.test(member.name));
    expect(named.filter(([, member]) => getNamedType(member.type).name !== 'DateTime').map(([coordinate, member]) => `${coordinate}: ${String(member.type)}`)).toEqual([]);
    // An exception that no longer exists is dropped here, not left to excuse a future field.
    expect(Object.keys(INSTANTS_NOT_AT).filter((coordinate) => !typed('DateTime').some(([c]) => c === coordinate))).toEqual([]);
  });

  it('names a calendar day …Date and types it String (YYYY-MM-DD), never DateTime', () => {
    const days = coordinates().filter(([, member]) => /Date$/.test(member.name));
    expect(days.map(([coordinate]) => coordinate)).toEqual(expect.arrayContaining(['RevenueBreakdownItem.localDate', 'Query.revenueBreakdown(createdDate)']));
    expect(days.filter(([, member]) => getNamedType(member.type).name !== 'String').map(([coordinate, member]) => `${coordinate}: ${String(member.type)}`)).toEqual([]);
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
