import { GraphQLScalarType, OperationDefinitionNode, buildSchema, parse, type GraphQLInputObjectType } from 'graphql';
import { DateTimeResolver } from 'graphql-scalars';
import { restBodyType } from '../../../rest-bridge/body-rename';
import { coerceRequest } from '../../../rest-bridge/coerce';
import { inputTypeSchema, type SchemaComponents } from '../../../rest-bridge/json-schema';
import type { RouteDefinition } from '../../../rest-bridge/types';
import { relocate } from '../../../rest-bridge/validation-error';

// The graph's shape after a rename (docs/api.md, "Schema style"); REST's body keeps the contract's names.
const schema = buildSchema(`
  scalar DateTime
  input CampaignInput {
    name: String
    startsAt: DateTime
    "Not before startsAt"
    endsAt: DateTime
  }
  type Query { x: String }
  type Mutation { update(id: ID!, input: CampaignInput!): String }
`);
Object.assign(schema.getType('DateTime') as GraphQLScalarType, { parseValue: DateTimeResolver.parseValue });

const RENAME = { startDate: 'startsAt', endDate: 'endsAt' };

const route: RouteDefinition = {
  method: 'PUT',
  path: '/campaigns/{id}',
  operationId: 'updateCampaign',
  summary: 'test',
  tag: 'test',
  document: 'mutation Update($id: ID!, $input: CampaignInput!) { update(id: $id, input: $input) }',
  pathParams: { id: 'id' },
  body: { variable: 'input', required: true, rename: RENAME },
  result: (data) => data,
};

const run = (body: unknown) =>
  coerceRequest(route, parse(route.document).definitions[0] as OperationDefinitionNode, schema, { pathParams: { id: 'c1' }, query: {}, headers: {}, body });

describe('a whole body whose input fields the graph renamed', () => {
  it("takes the contract's names and hands the graph its own", () => {
    expect(run({ name: 'Spring', startDate: '2026-03-01', endDate: '2026-05-31T00:00:00Z' })).toEqual({
      variables: { id: 'c1', input: { name: 'Spring', startsAt: '2026-03-01T00:00:00Z', endsAt: '2026-05-31T00:00:00Z' } },
    });
  });

  it("refuses in the contract's names: a bad date where it was sent, the graph's name as an unknown field", () => {
    const result = run({ startDate: '2026-13-01', startsAt: '2026-03-01T00:00:00Z' });
    expect('issues' in result && result.issues.map((issue) => [issue.type, issue.loc])).toEqual([
      ['datetime_from_date_parsing', ['body', 'startDate']],
      ['extra_forbidden', ['body', 'startsAt']],
    ]);
  });

  it("documents the body in the contract's names, descriptions included, under the input type's own name", () => {
    const components: SchemaComponents = {};
    inputTypeSchema(restBodyType(schema.getType('CampaignInput') as GraphQLInputObjectType, RENAME), components);
    expect(Object.keys(components.CampaignInput.properties as object)).toEqual(['name', 'startDate', 'endDate']);
    expect(components.CampaignInput.properties).toMatchObject({ endDate: { description: 'Not before startDate' } });
  });

  it("relocates and rewords a subgraph's issue about a renamed field", () => {
    const issue = { type: 'value_error', loc: ['input', 'endsAt'], msg: 'Value error, endsAt must not be before startsAt', input: 'x', ctx: { error: 'endsAt must not be before startsAt' } };
    expect(relocate([issue, { type: 'value_error', loc: ['input', 'name'], msg: 'Value error, name must not be empty', input: '' }], route)).toEqual([
      { type: 'value_error', loc: ['body', 'endDate'], msg: 'Value error, endDate must not be before startDate', input: 'x', ctx: { error: 'endDate must not be before startDate' } },
      { type: 'value_error', loc: ['body', 'name'], msg: 'Value error, name must not be empty', input: '' },
    ]);
  });
});
