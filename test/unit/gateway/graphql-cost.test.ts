import { buildSchema, parse } from 'graphql';
import { operationCost, selectOperation } from '../../../gateway/graphql/graphql-cost';

/** The shapes the cost reads: pages (`perPage` with a default), nested pages, a JSON argument, a list argument. */
const schema = buildSchema(`
  scalar JSON
  type Note { id: ID! }
  type NotePage { items: [Note!]! }
  type Patient { id: ID! notes(perPage: Int! = 20): NotePage! }
  type PatientPage { items: [Patient!]! total: Int! }
  type Result { rows: [JSON!]! }
  type Tenant { id: ID! }
  type Query {
    publicTenant: Tenant
    patients(page: Int! = 1, perPage: Int! = 20): PatientPage!
    executeAnalyticsQuery(query: JSON!): Result!
    byIds(ids: [ID!]!): [Patient!]!
  }
  type Mutation { createDashboard(name: String!): Tenant }
`);

const cost = (query: string, variables: Record<string, unknown> = {}, operationName?: string): number => {
  const document = parse(query);
  const operation = selectOperation(document, operationName);
  if (!operation) throw new Error('no operation');
  return operationCost(schema, document, operation, variables);
};

const filter = (values: number) => ({ member: 'Patients.city', operator: 'contains', values: Array.from({ length: values }, (_, i) => `v${i}`) });

describe('the rate-limit cost of a GraphQL operation', () => {
  it('is one unit per root field, aliases counted and fragments expanded', () => {
    expect(cost('{ publicTenant { id } }')).toBe(1);
    expect(cost('{ a: publicTenant { id } b: publicTenant { id } ...F } fragment F on Query { c: publicTenant { id } }')).toBe(3);
    expect(cost('mutation { a: createDashboard(name: "A") { id } b: createDashboard(name: "B") { id } }')).toBe(2);
    // One response key runs once; the work of its merged selections is added, never dropped.
    expect(cost('{ a: publicTenant { id } a: publicTenant { id } }')).toBe(1);
    expect(cost('{ p: patients(perPage: 100) { total } p: patients(perPage: 100) { items { notes(perPage: 100) { items { id } } } } }')).toBe(102);
  });

  it('selects the named operation, or the only one', () => {
    const two = parse('query One { a: publicTenant { id } } query Two { a: publicTenant { id } b: publicTenant { id } }');
    expect(selectOperation(two, 'Two')?.name?.value).toBe('Two');
    expect(selectOperation(two, undefined)).toBeNull();
    expect(selectOperation(two, 'Three')).toBeNull();
    expect(cost('query One { a: publicTenant { id } } query Two { a: publicTenant { id } b: publicTenant { id } }', {}, 'Two')).toBe(2);
  });

  it('grows with the page sizes asked for, per 100 objects, nested pages multiplied', () => {
    expect(cost('{ patients { items { id } } }')).toBe(1);
    expect(cost('{ patients(perPage: 100) { items { id } } }')).toBe(1);
    expect(cost('query($n: Int!) { patients(perPage: $n) { items { id } } }', { n: 100 })).toBe(1);
    // 100 patients and 100 notes each: 10,100 objects.
    expect(cost('{ patients(perPage: 100) { items { notes(perPage: 100) { items { id } } } } }')).toBe(101);
    // The notes' default page (20) counts too: 100 + 2,000.
    expect(cost('{ patients(perPage: 100) { items { ...N } } } fragment N on Patient { notes { items { id } } }')).toBe(21);
  });

  it('grows with the list values in arguments, JSON included, per 100', () => {
    const one = { q: { measures: ['Payments.total'], filters: [filter(1)] } };
    const heavy = { q: { measures: ['Payments.total'], filters: Array.from({ length: 20 }, () => filter(1_000)) } };
    const document = 'query($q: JSON!) { executeAnalyticsQuery(query: $q) { rows } }';
    expect(cost(document, one)).toBe(1);
    expect(cost(document, heavy)).toBe(1 + 200);
    // Literal arguments count as variables do.
    expect(cost(`{ executeAnalyticsQuery(query: ${JSON.stringify(filter(1_000)).replace(/"(\w+)":/g, '$1:')}) { rows } }`)).toBe(11);
    expect(cost('query($ids: [ID!]!) { byIds(ids: $ids) { id } }', { ids: Array.from({ length: 250 }, (_, i) => String(i)) })).toBe(3);
    // Issue 31's example: 15 aliased queries, each with 20 `contains` filters of 1,000 values.
    const fifteen = `query($q: JSON!) { ${Array.from({ length: 15 }, (_, i) => `q${i}: executeAnalyticsQuery(query: $q) { rows }`).join(' ')} }`;
    expect(cost(fifteen, heavy)).toBe(15 * 201);
  });

  it('costs at least 1, and stays linear in the document whatever its fragments spread', () => {
    expect(cost('{ __typename }')).toBe(1);
    // Each fragment spreads the one below it twice: 2^30 fields as written, computed once per fragment.
    const levels = 30;
    const fragments = Array.from({ length: levels }, (_, i) =>
      i === 0 ? 'fragment F0 on Patient { notes(perPage: 100) { items { id } } }' : `fragment F${i} on Patient { ...F${i - 1} n${i}: notes { items { id } } ...F${i - 1} }`,
    ).join(' ');
    const bomb = cost(`{ patients(perPage: 100) { items { ...F${levels - 1} } } } ${fragments}`);
    expect(bomb).toBeGreaterThan(1_000_000);
  });
});
