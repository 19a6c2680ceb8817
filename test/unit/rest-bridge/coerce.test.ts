import { GraphQLScalarType, OperationDefinitionNode, buildSchema, parse } from 'graphql';
import { DateTimeResolver } from 'graphql-scalars';
import { HttpInput, coerceRequest } from '../../../rest-bridge/coerce';
import type { RouteDefinition } from '../../../rest-bridge/types';
import { validationDetail } from '../../../rest-bridge/validation-error';

const schema = buildSchema(`
  scalar DateTime
  enum SortDirection { ASC DESC }
  enum RevenueGroupBy { LOCATION PROVIDER ITEM_CATEGORY }
  input AddressInput { city: String! zip: String }
  input CampaignInput {
    name: String!
    budget: Int!
    ratio: Float
    active: Boolean
    tags: [String!]
    address: AddressInput
    direction: RevenueGroupBy
    startDate: DateTime
    note: String = "none"
  }
  type Query {
    report(year: Int!, page: Int, perPage: Int, active: Boolean, ratio: Float, sort: SortDirection,
           groupBy: RevenueGroupBy!, ids: [Int!], from: DateTime, apiKey: String!): [String]
  }
  type Mutation { update(id: ID!, input: CampaignInput!): String }
`);
// buildSchema leaves custom scalars as identity functions; the real one validates.
Object.assign(schema.getType('DateTime') as GraphQLScalarType, { parseValue: DateTimeResolver.parseValue });

const base = { summary: 'test', tag: 'test', result: (data: Record<string, unknown>) => data };

const reportRoute: RouteDefinition = {
  ...base,
  method: 'GET',
  path: '/reports/{year}',
  operationId: 'report',
  document: `query Report($year: Int!, $page: Int, $perPage: Int = 20, $active: Boolean, $ratio: Float,
    $sort: SortDirection, $groupBy: RevenueGroupBy!, $ids: [Int!], $from: DateTime, $apiKey: String!) {
    report(year: $year, page: $page, perPage: $perPage, active: $active, ratio: $ratio, sort: $sort,
           groupBy: $groupBy, ids: $ids, from: $from, apiKey: $apiKey)
  }`,
  pathParams: { year: 'year' },
  queryParams: { page: 'page', per_page: 'perPage', active: 'active', ratio: 'ratio', sort: 'sort', group_by: 'groupBy', ids: 'ids', from: 'from' },
  headerParams: { 'api-key': 'apiKey' },
};

const updateRoute: RouteDefinition = {
  ...base,
  method: 'PUT',
  path: '/campaigns/{id}',
  operationId: 'updateCampaign',
  document: 'mutation Update($id: ID!, $input: CampaignInput!) { update(id: $id, input: $input) }',
  pathParams: { id: 'id' },
  body: { variable: 'input', required: true },
};

function run(route: RouteDefinition, input: Partial<HttpInput>) {
  const operation = parse(route.document).definitions[0] as OperationDefinitionNode;
  return coerceRequest(route, operation, schema, { pathParams: {}, query: {}, headers: {}, body: undefined, ...input });
}

/** The 422 detail, checked both for content and for key order. */
function expectDetail(result: ReturnType<typeof run>, expected: object[], style: 'full' | 'basic' = 'full') {
  if (!('issues' in result)) throw new Error(`expected issues, got ${JSON.stringify(result.variables)}`);
  const detail = validationDetail(result.issues, { validationStyle: style });
  expect(detail).toEqual(expected);
  expect(JSON.stringify(detail)).toBe(JSON.stringify(expected));
}

const report = (query: HttpInput['query'], headers: HttpInput['headers'] = { 'api-key': 'k' }, year = '2024') =>
  run(reportRoute, { pathParams: { year }, query: { group_by: 'location', ...query }, headers });

const campaign = (body: unknown) => run(updateRoute, { pathParams: { id: 'c1' }, body });

describe('coerceRequest: text parameters', () => {
  it('builds GraphQL variables from valid text', () => {
    const result = report({ page: ' 3 ', active: 'Yes', ratio: '1e1', sort: 'DESC', group_by: 'item_category', ids: ['1', '2'], from: '2024-05-01T10:00:00Z' });
    expect(result).toEqual({
      variables: { year: 2024, page: 3, active: true, ratio: 10, sort: 'DESC', groupBy: 'ITEM_CATEGORY', ids: [1, 2], from: '2024-05-01T10:00:00Z', apiKey: 'k' },
    });
  });

  it('takes Pydantic integer spellings, a single repeated key as a list, and a bare date as midnight', () => {
    const result = report({ page: ['9', '3.0'], ids: '5', from: '2024-05-01', active: '0' });
    expect(result).toEqual({
      variables: { year: 2024, page: 3, ids: [5], from: '2024-05-01T00:00:00Z', active: false, groupBy: 'LOCATION', apiKey: 'k' },
    });
  });

  it('rejects a bad integer, an empty one and a fraction with int_parsing', () => {
    expectDetail(report({ page: 'abc', per_page: '' }, undefined, '1.5'), [
      { type: 'int_parsing', loc: ['path', 'year'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: '1.5' },
      { type: 'int_parsing', loc: ['query', 'page'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: 'abc' },
      { type: 'int_parsing', loc: ['query', 'per_page'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: '' },
    ]);
  });

  it('keeps GraphQL Int within 32 bits', () => {
    expectDetail(report({ page: '2147483648' }), [
      { type: 'less_than_equal', loc: ['query', 'page'], msg: 'Input should be less than or equal to 2147483647', input: '2147483648', ctx: { le: 2147483647 } },
    ]);
  });

  it('rejects a bad boolean and non-finite numbers', () => {
    expectDetail(report({ active: 'maybe', ratio: 'nan' }), [
      { type: 'bool_parsing', loc: ['query', 'active'], msg: 'Input should be a valid boolean, unable to interpret input', input: 'maybe' },
      { type: 'float_parsing', loc: ['query', 'ratio'], msg: 'Input should be a valid number, unable to parse string as a number', input: 'nan' },
    ]);
  });

  it('rejects a bad enum with the values written as the REST client writes them', () => {
    expectDetail(report({ sort: 'up', group_by: 'city' }), [
      { type: 'enum', loc: ['query', 'sort'], msg: "Input should be 'asc' or 'desc'", input: 'up', ctx: { expected: "'asc' or 'desc'" } },
      {
        type: 'enum',
        loc: ['query', 'group_by'],
        msg: "Input should be 'location', 'provider' or 'item_category'",
        input: 'city',
        ctx: { expected: "'location', 'provider' or 'item_category'" },
      },
    ]);
  });

  it('reports missing required parameters with input null, path then query then header', () => {
    const result = run(reportRoute, { pathParams: { year: 'x' }, query: { page: 'y' }, headers: {} });
    expectDetail(result, [
      { type: 'int_parsing', loc: ['path', 'year'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: 'x' },
      { type: 'int_parsing', loc: ['query', 'page'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: 'y' },
      { type: 'missing', loc: ['query', 'group_by'], msg: 'Field required', input: null },
      { type: 'missing', loc: ['header', 'api-key'], msg: 'Field required', input: null },
    ]);
  });

  it('checks each repeated key of a list with its index in loc', () => {
    expectDetail(report({ ids: ['1', 'x', '3', '4.5'] }), [
      { type: 'int_parsing', loc: ['query', 'ids', 1], msg: 'Input should be a valid integer, unable to parse string as an integer', input: 'x' },
      { type: 'int_parsing', loc: ['query', 'ids', 3], msg: 'Input should be a valid integer, unable to parse string as an integer', input: '4.5' },
    ]);
  });

  it('explains a bad date-time the way Pydantic does', () => {
    const reason = (from: string) => {
      const result = report({ from });
      return 'issues' in result ? result.issues[0] : undefined;
    };
    expect(reason('soon')).toEqual({
      type: 'datetime_from_date_parsing',
      loc: ['query', 'from'],
      msg: 'Input should be a valid datetime or date, input is too short',
      input: 'soon',
      ctx: { error: 'input is too short' },
    });
    expect(reason('2024-13-01')?.ctx).toEqual({ error: 'month value is outside expected range of 1-12' });
    expect(reason('2023-02-29')?.ctx).toEqual({ error: 'day value is outside expected range' });
    expect(reason('x024-01-01')?.ctx).toEqual({ error: 'invalid character in year' });
    expect(reason('2024/01/01')?.ctx).toEqual({ error: 'invalid date separator, expected `-`' });
    expect(reason('2024-01-01T25:00:00Z')?.ctx).toEqual({ error: 'unexpected extra characters at the end of the input' });
  });
});

describe('coerceRequest: JSON body', () => {
  it('passes a valid body through in GraphQL form, leaving defaults to GraphQL', () => {
    const body = { name: 'Spring', budget: 100, ratio: null, tags: ['a'], address: { city: 'Oslo' }, direction: 'provider', startDate: '2024-01-01T00:00:00Z' };
    expect(campaign(body)).toEqual({
      variables: { id: 'c1', input: { ...body, direction: 'PROVIDER' } },
    });
  });

  it('reports a missing field with the received body as input, then extra fields', () => {
    expectDetail(campaign({ budget: 5, colour: 'red' }), [
      { type: 'missing', loc: ['body', 'name'], msg: 'Field required', input: { budget: 5, colour: 'red' } },
      { type: 'extra_forbidden', loc: ['body', 'colour'], msg: 'Extra inputs are not permitted', input: 'red' },
    ]);
  });

  it('rejects what Pydantic lax mode cannot convert', () => {
    const body = { name: 5, budget: '5x', ratio: 'x', active: 'perhaps', tags: 'a', address: 'Oslo', direction: 3, startDate: 1700000000 };
    expectDetail(campaign(body), [
      { type: 'string_type', loc: ['body', 'name'], msg: 'Input should be a valid string', input: 5 },
      { type: 'int_parsing', loc: ['body', 'budget'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: '5x' },
      { type: 'float_parsing', loc: ['body', 'ratio'], msg: 'Input should be a valid number, unable to parse string as a number', input: 'x' },
      { type: 'bool_parsing', loc: ['body', 'active'], msg: 'Input should be a valid boolean, unable to interpret input', input: 'perhaps' },
      { type: 'list_type', loc: ['body', 'tags'], msg: 'Input should be a valid list', input: 'a' },
      { type: 'dict_type', loc: ['body', 'address'], msg: 'Input should be a valid dictionary', input: 'Oslo' },
      {
        type: 'enum',
        loc: ['body', 'direction'],
        msg: "Input should be 'location', 'provider' or 'item_category'",
        input: 3,
        ctx: { expected: "'location', 'provider' or 'item_category'" },
      },
      { type: 'datetime_type', loc: ['body', 'startDate'], msg: 'Input should be a valid datetime', input: 1700000000 },
    ]);
  });

  it.each([
    ['"true"', 'true', true],
    ['"Off"', 'off', false],
    ['"y"', 'y', true],
    ['1', 1, true],
    ['0', 0, false],
  ])('takes %s for a boolean, as Pydantic lax mode does', (_label, active, expected) => {
    expect(campaign({ name: 'n', budget: 1, active })).toEqual({ variables: { id: 'c1', input: { name: 'n', budget: 1, active: expected } } });
  });

  it('takes numeric strings, whole floats and booleans for numbers, as Pydantic lax mode does', () => {
    expect(campaign({ name: 'n', budget: ' 1_000 ', ratio: '2.5' })).toEqual({ variables: { id: 'c1', input: { name: 'n', budget: 1000, ratio: 2.5 } } });
    expect(campaign({ name: 'n', budget: '3.0', ratio: true })).toEqual({ variables: { id: 'c1', input: { name: 'n', budget: 3, ratio: 1 } } });
    expect(campaign({ name: 'n', budget: 4.0, ratio: 1 })).toEqual({ variables: { id: 'c1', input: { name: 'n', budget: 4, ratio: 1 } } });
  });

  it('refuses 2 for a boolean and 1.5 as text for an integer', () => {
    expectDetail(campaign({ name: 'n', budget: '1.5', active: 2 }), [
      { type: 'int_parsing', loc: ['body', 'budget'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: '1.5' },
      { type: 'bool_parsing', loc: ['body', 'active'], msg: 'Input should be a valid boolean, unable to interpret input', input: 2 },
    ]);
  });

  it('refuses NUL and unpaired surrogates in body strings, keys and query text, naming the field', () => {
    const issue = (loc: (string | number)[], input: string, error: string) => ({ type: 'value_error', loc, msg: `Value error, ${error}`, input, ctx: { error } });
    const nul = 'text must not contain NUL characters';
    const lone = 'text must not contain unpaired surrogate characters';
    expectDetail(campaign({ name: 'a\u0000', budget: 1, tags: ['ok', '\ud800'] }), [issue(['body', 'name'], 'a\u0000', nul), issue(['body', 'tags', 1], '\ud800', lone)]);
    expectDetail(run(reportRoute, { pathParams: { year: '2024' }, query: { group_by: 'location', sort: 'a\u0000' }, headers: { 'api-key': 'k\udfff' } }), [
      issue(['query', 'sort'], 'a\u0000', nul),
      issue(['header', 'api-key'], 'k\udfff', lone),
    ]);
  });

  it('rejects a fractional integer, null for a non-null field, and bad nested values', () => {
    expectDetail(campaign({ name: null, budget: 1.5, tags: ['a', 2], address: { zip: 1 } }), [
      { type: 'string_type', loc: ['body', 'name'], msg: 'Input should be a valid string', input: null },
      { type: 'int_from_float', loc: ['body', 'budget'], msg: 'Input should be a valid integer, got a number with a fractional part', input: 1.5 },
      { type: 'string_type', loc: ['body', 'tags', 1], msg: 'Input should be a valid string', input: 2 },
      { type: 'missing', loc: ['body', 'address', 'city'], msg: 'Field required', input: { zip: 1 } },
      { type: 'string_type', loc: ['body', 'address', 'zip'], msg: 'Input should be a valid string', input: 1 },
    ]);
  });

  it('takes a JSON null body for no body, as FastAPI does', () => {
    expectDetail(campaign(null), [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
  });

  it.each([[[1]], ['text'], [7]])('refuses a body that is not an object: %j', (body) => {
    expectDetail(campaign(body), [
      { type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: body },
    ]);
  });

  it('reports a required body that was not sent', () => {
    expectDetail(campaign(undefined), [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
  });

  it('validates {} in place of an optional body that was not sent', () => {
    const optional = { ...updateRoute, body: { variable: 'input', required: false } };
    expectDetail(run(optional, { pathParams: { id: 'c1' } }), [
      { type: 'missing', loc: ['body', 'name'], msg: 'Field required', input: {} },
      { type: 'missing', loc: ['body', 'budget'], msg: 'Field required', input: {} },
    ]);
  });

  it('emits loc, msg and type only in the basic style', () => {
    expectDetail(campaign({ name: 'x' }), [{ loc: ['body', 'budget'], msg: 'Field required', type: 'missing' }], 'basic');
  });

  it('treats a route naming an unknown variable as a programming error', () => {
    expect(() => run({ ...updateRoute, pathParams: { id: 'campaignId' } }, { pathParams: { id: 'c1' }, body: {} })).toThrow(/campaignId/);
  });
});

describe('coerceRequest: JSON body fields mapped to variables of their own', () => {
  const notifyRoute: RouteDefinition = {
    ...base,
    method: 'POST',
    path: '/campaigns/{id}/notify',
    operationId: 'notify',
    document: 'mutation Notify($id: ID!, $active: Boolean! = true, $ratio: Float) { report(year: 1, groupBy: LOCATION, apiKey: "k", active: $active, ratio: $ratio) }',
    pathParams: { id: 'id' },
    body: { fields: { sendNow: 'active', share: 'ratio' }, required: false },
  };
  const notify = (body: unknown, route = notifyRoute) => run(route, { pathParams: { id: 'c1' }, body });

  it('gives each field to its variable, and leaves an absent one to the variable default', () => {
    expect(notify({ sendNow: false, share: '0.5' })).toEqual({ variables: { id: 'c1', active: false, ratio: 0.5 } });
    expect(notify({})).toEqual({ variables: { id: 'c1' } });
    expect(notify(undefined)).toEqual({ variables: { id: 'c1' } });
  });

  it('places each field error at its body field, and refuses fields not mapped', () => {
    expectDetail(notify({ sendNow: null, share: 'x', colour: 'red' }), [
      { type: 'bool_type', loc: ['body', 'sendNow'], msg: 'Input should be a valid boolean', input: null },
      { type: 'float_parsing', loc: ['body', 'share'], msg: 'Input should be a valid number, unable to parse string as a number', input: 'x' },
      { type: 'extra_forbidden', loc: ['body', 'colour'], msg: 'Extra inputs are not permitted', input: 'red' },
    ]);
  });

  it.each([[[1]], ['text'], [7]])('refuses a body that is not an object, whole: %j', (body) => {
    expectDetail(notify(body), [
      { type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: body },
    ]);
  });

  it('reports a required body, and a required field, that were not sent', () => {
    const required = { ...notifyRoute, document: notifyRoute.document.replace('$active: Boolean! = true', '$active: Boolean!'), body: { fields: { sendNow: 'active' }, required: true } };
    expectDetail(notify(undefined, required), [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
    expectDetail(notify({}, required), [{ type: 'missing', loc: ['body', 'sendNow'], msg: 'Field required', input: {} }]);
  });
});
