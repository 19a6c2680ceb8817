import { GraphQLScalarType, OperationDefinitionNode, buildSchema, parse } from 'graphql';
import { SafeIntResolver } from 'graphql-scalars';
import { HttpInput, coerceRequest } from '../../../rest-bridge/coerce';
import { centsBounds, FLOAT_AMOUNTS, INT_AMOUNTS } from '../../../rest-bridge/routes/revenue-amounts';
import type { RouteDefinition } from '../../../rest-bridge/types';
import { validationDetail } from '../../../rest-bridge/validation-error';

// Money on the graph is SafeInt (docs/api.md, Schema style); REST reads it with Int's Pydantic rules and the safe bounds.
const schema = buildSchema(`
  scalar SafeInt
  input BudgetInput { budgetCents: SafeInt }
  type Query { lines(minNetCents: SafeInt, maxNetCents: SafeInt, limitCents: SafeInt): [String] }
  type Mutation { budget(input: BudgetInput!): String }
`);
Object.assign(schema.getType('SafeInt') as GraphQLScalarType, { parseValue: SafeIntResolver.parseValue });

const base = { summary: 'test', tag: 'test', method: 'GET' as const, path: '/lines', result: (data: Record<string, unknown>) => data };
const document = 'query Lines($minNetCents: SafeInt, $maxNetCents: SafeInt, $limitCents: SafeInt) { lines(minNetCents: $minNetCents, maxNetCents: $maxNetCents, limitCents: $limitCents) }';
const queryParams = { min_net_amount: 'minNetCents', max_net_amount: 'maxNetCents', limit: 'limitCents' };

const safeRoute: RouteDefinition = { ...base, operationId: 'lines', document, queryParams };
const floatRoute: RouteDefinition = { ...safeRoute, restScalars: FLOAT_AMOUNTS, variables: centsBounds };
const intRoute: RouteDefinition = { ...safeRoute, restScalars: INT_AMOUNTS };
const bodyRoute: RouteDefinition = {
  ...base,
  method: 'PUT',
  operationId: 'budget',
  document: 'mutation Budget($input: BudgetInput!) { budget(input: $input) }',
  body: { variable: 'input', required: true },
};

function run(route: RouteDefinition, input: Partial<HttpInput>) {
  const operation = parse(route.document).definitions[0] as OperationDefinitionNode;
  return coerceRequest(route, operation, schema, { pathParams: {}, query: {}, headers: {}, body: undefined, ...input });
}

function detail(result: ReturnType<typeof run>) {
  if (!('issues' in result)) throw new Error(`expected issues, got ${JSON.stringify(result.variables)}`);
  return validationDetail(result.issues, { validationStyle: 'full' });
}

const MAX = Number.MAX_SAFE_INTEGER;
const INT_PARSING = 'Input should be a valid integer, unable to parse string as an integer';

describe('REST coercion of SafeInt', () => {
  it('takes integers beyond 32 bits, in text and in JSON, with Int spellings', () => {
    expect(run(safeRoute, { query: { limit: '3_000_000_000' } })).toEqual({ variables: { limitCents: 3_000_000_000 } });
    expect(run(safeRoute, { query: { limit: ' 12.0 ' } })).toEqual({ variables: { limitCents: 12 } });
    expect(run(bodyRoute, { body: { budgetCents: 3_000_000_000 } })).toEqual({ variables: { input: { budgetCents: 3_000_000_000 } } });
    expect(run(bodyRoute, { body: { budgetCents: '42' } })).toEqual({ variables: { input: { budgetCents: 42 } } });
    expect(run(bodyRoute, { body: { budgetCents: true } })).toEqual({ variables: { input: { budgetCents: 1 } } });
  });

  it("refuses what Int refuses, with Int's error types", () => {
    expect(detail(run(safeRoute, { query: { limit: '1.5' } }))).toEqual([{ type: 'int_parsing', loc: ['query', 'limit'], msg: INT_PARSING, input: '1.5' }]);
    expect(detail(run(bodyRoute, { body: { budgetCents: 1.5 } }))).toEqual([
      { type: 'int_from_float', loc: ['body', 'budgetCents'], msg: 'Input should be a valid integer, got a number with a fractional part', input: 1.5 },
    ]);
    expect(detail(run(bodyRoute, { body: { budgetCents: [1] } }))).toEqual([{ type: 'int_type', loc: ['body', 'budgetCents'], msg: 'Input should be a valid integer', input: [1] }]);
    expect(detail(run(bodyRoute, { body: { budgetCents: 'ten' } }))).toEqual([{ type: 'int_parsing', loc: ['body', 'budgetCents'], msg: INT_PARSING, input: 'ten' }]);
  });

  it('bounds it to the safe integers, said as ge/le', () => {
    expect(run(safeRoute, { query: { limit: String(MAX) } })).toEqual({ variables: { limitCents: MAX } });
    expect(detail(run(safeRoute, { query: { limit: '9007199254740992' } }))).toEqual([
      { type: 'less_than_equal', loc: ['query', 'limit'], msg: `Input should be less than or equal to ${MAX}`, input: '9007199254740992', ctx: { le: MAX } },
    ]);
    expect(detail(run(bodyRoute, { body: { budgetCents: -(2 ** 53) } }))).toEqual([
      { type: 'greater_than_equal', loc: ['body', 'budgetCents'], msg: `Input should be greater than or equal to ${-MAX}`, input: -(2 ** 53), ctx: { ge: -MAX } },
    ]);
  });
});

describe("REST's own types for the revenue amount bounds (restScalars)", () => {
  it('reads min/max_net_amount as numbers and passes the whole cents that select the same lines', () => {
    expect(run(floatRoute, { query: { min_net_amount: '12.5', max_net_amount: '1e3' } })).toEqual({ variables: { minNetCents: 13, maxNetCents: 1000 } });
    expect(run(floatRoute, { query: { min_net_amount: '-0.5', max_net_amount: '99.9' } })).toEqual({ variables: { minNetCents: 0, maxNetCents: 99 } });
    expect(run(floatRoute, { query: { min_net_amount: '1e300' } })).toEqual({ variables: { minNetCents: MAX } });
  });

  it('keeps bounds in order that hold no whole cent an empty range, not a refusal', () => {
    expect(run(floatRoute, { query: { min_net_amount: '12.2', max_net_amount: '12.8' } })).toEqual({ variables: { minNetCents: MAX, maxNetCents: MAX } });
    // Out of order stays out of order, for the graph's max-below-min refusal.
    expect(run(floatRoute, { query: { min_net_amount: '20', max_net_amount: '10' } })).toEqual({ variables: { minNetCents: 20, maxNetCents: 10 } });
  });

  it("refuses what Float refused, at the REST name", () => {
    expect(detail(run(floatRoute, { query: { min_net_amount: 'ten' } }))).toEqual([
      { type: 'float_parsing', loc: ['query', 'min_net_amount'], msg: 'Input should be a valid number, unable to parse string as a number', input: 'ten' },
    ]);
  });

  it('keeps a 32-bit integer parameter 32-bit', () => {
    expect(run(intRoute, { query: { min_net_amount: '2147483647' } })).toEqual({ variables: { minNetCents: 2147483647 } });
    expect(detail(run(intRoute, { query: { max_net_amount: '2147483648', min_net_amount: '1.5' } }))).toEqual([
      { type: 'int_parsing', loc: ['query', 'min_net_amount'], msg: INT_PARSING, input: '1.5' },
      { type: 'less_than_equal', loc: ['query', 'max_net_amount'], msg: 'Input should be less than or equal to 2147483647', input: '2147483648', ctx: { le: 2147483647 } },
    ]);
  });
});
