import { rootFieldCount } from '../../../gateway/graphql/graphql-cost';

const MAX_TOKENS = 2_000;

describe('the rate-limit cost of a GraphQL request (root fields)', () => {
  const documents: [string, string | undefined, number][] = [
    ['{ publicTenant { id } }', undefined, 1],
    ['{ a: publicTenant { id } b: publicTenant { id } ...F } fragment F on Query { c: publicTenant { id } }', undefined, 3],
    ['query One { a: publicTenant { id } } query Two { a: publicTenant { id } b: publicTenant { id } }', 'Two', 2],
    ['query One { a: publicTenant { id } } query Two { a: publicTenant { id } b: publicTenant { id } }', 'One', 1],
    ['query One { a: publicTenant { id } } query Two { a: publicTenant { id } b: publicTenant { id } }', undefined, 1],
    ['{ not graphql', undefined, 1],
  ];

  it.each(documents)('%s (operation %s) costs %i', (query, operationName, cost) => {
    expect(rootFieldCount(query, operationName, MAX_TOKENS)).toBe(cost);
  });
});
