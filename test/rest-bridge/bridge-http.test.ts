import { ROUTES } from '../../rest-bridge/routes';
import type { RouteDefinition } from '../../rest-bridge/types';
import { createTestTenant } from '../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';

/**
 * A route over the real `apiKeys` query with every coercible parameter type, mounted beside the
 * contract's routes; it exercises the bridge's query coercion end to end through real HTTP.
 */
const KEYS_ROUTE: RouteDefinition = {
  method: 'GET',
  path: '/test/api-keys',
  operationId: 'testListApiKeys',
  summary: 'Test route',
  tag: 'Test',
  document: `query Keys($perPage: Int, $after: String, $includeRevoked: Boolean, $sortDirection: SortDirection!) {
    apiKeys(first: $perPage, after: $after, includeRevoked: $includeRevoked, sortDirection: $sortDirection) { nodes { id prefix } totalCount }
  }`,
  queryParams: { page: 'page', per_page: 'perPage', include_revoked: 'includeRevoked', sort_direction: 'sortDirection' },
  // Page numbers over the connection, as every REST list (rest-bridge/page-list.ts).
  paged: 'envelope',
  result: (data) => data.apiKeys,
};

describe('REST bridge coercion through HTTP', () => {
  let server: InProcessApp;
  beforeAll(async () => {
    server = await startInProcessApp({}, { routes: [...ROUTES, KEYS_ROUTE] });
  });
  afterAll(() => server.close());

  it('runs the operation with coerced variables', async () => {
    const tenant = await createTestTenant('Bridge', server.url);
    const res = await tenant.get('/test/api-keys?page=1&per_page=10&include_revoked=yes&sort_direction=asc');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 1, page: 1, perPage: 10, pages: 1 });
    expect(res.body.items[0].prefix).toMatch(/^hpp_/);
  });

  it('gives the exact 422 bodies for a bad integer, boolean and enum together', async () => {
    const tenant = await createTestTenant('Bridge', server.url);
    const res = await tenant.get('/test/api-keys?page=two&include_revoked=maybe&sort_direction=up');
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toBe(
      JSON.stringify({
        detail: [
          { type: 'int_parsing', loc: ['query', 'page'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: 'two' },
          { type: 'bool_parsing', loc: ['query', 'include_revoked'], msg: 'Input should be a valid boolean, unable to interpret input', input: 'maybe' },
          { type: 'enum', loc: ['query', 'sort_direction'], msg: "Input should be 'asc' or 'desc'", input: 'up', ctx: { expected: "'asc' or 'desc'" } },
        ],
      }),
    );
  });

  it('gives `missing` for an absent required parameter', async () => {
    const tenant = await createTestTenant('Bridge', server.url);
    const res = await tenant.get('/test/api-keys');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [{ type: 'missing', loc: ['query', 'sort_direction'], msg: 'Field required', input: null }] });
  });

  it('maps a subgraph validation error back to the query parameter it came from', async () => {
    const tenant = await createTestTenant('Bridge', server.url);
    const res = await tenant.get('/test/api-keys?per_page=500&sort_direction=desc');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      detail: [{ type: 'less_than_equal', loc: ['query', 'per_page'], msg: 'Input should be less than or equal to 100', input: 500, ctx: { le: 100 } }],
    });
  });
});
