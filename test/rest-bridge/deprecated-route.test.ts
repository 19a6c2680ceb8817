import { ROUTES } from '../../rest-bridge/routes';
import type { RouteDefinition } from '../../rest-bridge/types';
import { createTestTenant } from '../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';

/** A test-only route marked deprecated, beside the contract's routes (none of which is deprecated). */
const DEPRECATED_ROUTE: RouteDefinition = {
  method: 'GET',
  path: '/test/old-api-keys',
  operationId: 'testOldApiKeys',
  summary: 'Test route, going away',
  tag: 'Test',
  document: 'query Keys($sortDirection: SortDirection!) { apiKeys(sortDirection: $sortDirection) { totalCount } }',
  queryParams: { sort_direction: 'sortDirection' },
  result: (data) => data.apiKeys,
  deprecated: { since: '2026-11-01', sunset: '2027-05-01', link: 'https://example.test/changelog#old-api-keys' },
};

const SINCE = `@${Date.UTC(2026, 10, 1) / 1000}`;
const SUNSET = 'Sat, 01 May 2027 00:00:00 GMT';

describe('a deprecated REST route', () => {
  let server: InProcessApp;
  beforeAll(async () => {
    server = await startInProcessApp({}, { routes: [...ROUTES, DEPRECATED_ROUTE] });
  });
  afterAll(() => server.close());

  it('answers with Deprecation (RFC 9745), Sunset (RFC 8594) and Link rel="deprecation"', async () => {
    const tenant = await createTestTenant('Deprecated', server.url);
    const res = await tenant.get('/test/old-api-keys?sort_direction=asc');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ totalCount: 1 });
    expect(res.headers.get('deprecation')).toBe(SINCE);
    expect(res.headers.get('sunset')).toBe(SUNSET);
    expect(res.headers.get('link')).toBe('<https://example.test/changelog#old-api-keys>; rel="deprecation"');
  });

  it('says so on its refusals too: a 422 and a 401', async () => {
    const tenant = await createTestTenant('Deprecated', server.url);
    const invalid = await tenant.get('/test/old-api-keys?sort_direction=up');
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get('deprecation')).toBe(SINCE);
    const wrongKey = await tenant.get('/test/old-api-keys?sort_direction=asc', { 'API-KEY': 'hpp_not-a-key' });
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.headers.get('sunset')).toBe(SUNSET);
  });

  it('is deprecated in /openapi.json, and a route that is not says nothing of it', async () => {
    const tenant = await createTestTenant('Deprecated', server.url);
    const document: any = await (await fetch(`${server.url}/openapi.json`)).json();
    expect(document.paths['/test/old-api-keys'].get).toMatchObject({ deprecated: true, 'x-sunset': '2027-05-01' });
    expect(document.paths['/tenant/public'].get.deprecated).toBeUndefined();
    const current = await tenant.get('/tenant/public');
    expect(current.status).toBe(200);
    expect(current.headers.get('deprecation')).toBeNull();
    expect(current.headers.get('sunset')).toBeNull();
  });
});
