import { admin, createTestTenant, request, type TestTenant } from '../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';

/** Restricted and expiring API keys (docs/access.md): how they are issued, listed, told apart and refused. */
describe('restricted API keys', () => {
  let server: InProcessApp;
  let tenant: TestTenant;
  const issue = (body: unknown) => admin(`/tenants/${tenant.tenantId}/api-keys`, { method: 'POST', body: JSON.stringify(body) }, server.url);
  const call = (apiKey: string, path = '/tenant/public') => request(`${server.url}${path}`, { headers: { TENANT: tenant.tenantId, 'API-KEY': apiKey } });

  beforeAll(async () => {
    server = await startInProcessApp();
    tenant = await createTestTenant('Restricted keys', server.url);
  });
  afterAll(() => server.close());

  it('refuses unknown scopes, an empty list, a bad or past expiry with a 422 naming the field', async () => {
    const unknown = await issue({ scopes: ['tenant:read', 'root'] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]).toMatchObject({ loc: ['body', 'scopes'], msg: 'Value error, unknown scope "root" (docs/access.md lists them)' });
    expect((await issue({ scopes: [] })).body.detail[0].loc).toEqual(['body', 'scopes']);
    expect((await issue({ scopes: 'tenant:read' })).body.detail[0]).toMatchObject({ type: 'list_type', loc: ['body', 'scopes'] });
    const past = await issue({ scopes: ['tenant:read'], expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(422);
    expect(past.body.detail[0]).toMatchObject({ loc: ['body', 'expiresAt'], msg: 'Value error, the expiry must be in the future' });
    expect((await issue({ expiresAt: 'soon' })).body.detail[0]).toMatchObject({ loc: ['body', 'expiresAt'], msg: 'Value error, the expiry must be an ISO 8601 date-time' });
  });

  it('shows its kind in its prefix and in both listings; the other kind of prefix on it is no key', async () => {
    const issued = await issue({ name: 'reports', scopes: ['analytics:read', 'tenant:read', 'analytics:read'] });
    expect(issued.status).toBe(201);
    expect(issued.body.apiKey).toMatch(/^hpr_[A-Za-z0-9]{16}_/);
    const listed = await admin(`/tenants/${tenant.tenantId}/api-keys`, {}, server.url);
    const entry = listed.body.find((key: { id: string }) => key.id === issued.body.id);
    expect(entry).toMatchObject({ kind: 'restricted', scopes: ['analytics:read', 'tenant:read'], prefix: issued.body.apiKey.slice(0, 20), expiresAt: null });
    const initial = listed.body.find((key: { name: string }) => key.name === 'initial');
    expect(initial).toMatchObject({ kind: 'full', scopes: null, prefix: expect.stringMatching(/^hpp_/) });
    const graph = await tenant.graphql('{ apiKeys { nodes { id kind scopes prefix } } }');
    expect(graph.body.data.apiKeys.nodes).toEqual(expect.arrayContaining([{ id: issued.body.id, kind: 'RESTRICTED', scopes: ['analytics:read', 'tenant:read'], prefix: entry.prefix }]));

    expect((await call(issued.body.apiKey)).status).toBe(200);
    const disguised = await call(issued.body.apiKey.replace(/^hpr_/, 'hpp_'));
    expect(disguised.status).toBe(401);
    expect(disguised.body).toEqual({ detail: 'Invalid API key' });
  });

  it('a restricted key is refused outside its scopes on both surfaces, before its body is read', async () => {
    const { body } = await issue({ scopes: ['tenant:read'] });
    const rest = await request(`${server.url}/analytics/dashboards`, { method: 'POST', headers: { TENANT: tenant.tenantId, 'API-KEY': body.apiKey, 'content-type': 'application/json' }, body: '{not json' });
    expect(rest.status).toBe(403);
    expect(rest.body).toEqual({ detail: 'Missing scope "analytics:write"' });
    expect(rest.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    const graph = await request(`${server.url}/graphql`, {
      method: 'POST',
      headers: { TENANT: tenant.tenantId, 'API-KEY': body.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ tenant { id } patients { totalCount } }' }),
    });
    expect(graph.status).toBe(403);
    expect(graph.body).toEqual({ errors: [{ message: 'Missing scope "patients:read"', extensions: { code: 'FORBIDDEN', scope: 'patients:read' } }] });
  });

  it('an expiring key works until its expiry, then is a 401 saying so, remembered or not', async () => {
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const { body } = await issue({ scopes: ['tenant:read'], expiresAt });
    expect((await call(body.apiKey)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(expiresAt) - Date.now()) + 100));
    const expired = await call(body.apiKey);
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ detail: 'API key expired' });
  });
});
