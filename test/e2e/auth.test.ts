import { admin, baseUrl, createTestTenant, request, type HttpResult } from '../utils/e2e';

/** Every response carries both rate-limit header families (docs/decisions.md, Tenancy). */
function expectRateLimitHeaders(res: HttpResult): void {
  expect(Number(res.headers.get('x-ratelimit-limit'))).toBeGreaterThan(0);
  expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  expect(reset).toBeGreaterThan(Date.now() / 1000);
  expect(res.headers.get('ratelimit-policy')).toMatch(/^"(tenant|anonymous)";q=\d+;w=\d+$/);
  expect(res.headers.get('ratelimit')).toMatch(/^"(tenant|anonymous)";r=\d+;t=\d+$/);
}

describe(`authentication matrix (${process.env.E2E_MODE} mode)`, () => {
  const url = () => `${baseUrl()}/tenant/public`;

  it('a good key answers 200 with the tenant budget', async () => {
    const tenant = await createTestTenant();
    const res = await tenant.get('/tenant/public');
    expect(res.status).toBe(200);
    expectRateLimitHeaders(res);
    expect(res.headers.get('ratelimit-policy')).toMatch(/^"tenant"/);
  });

  it('missing TENANT is a 422 at header.tenant', async () => {
    const tenant = await createTestTenant();
    const res = await request(url(), { headers: { 'API-KEY': tenant.apiKey } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [{ type: 'missing', loc: ['header', 'tenant'], msg: 'Field required', input: null }] });
    expectRateLimitHeaders(res);
  });

  it('missing API-KEY is a 422 at header.api-key', async () => {
    const tenant = await createTestTenant();
    const res = await request(url(), { headers: { TENANT: tenant.tenantId } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [{ type: 'missing', loc: ['header', 'api-key'], msg: 'Field required', input: null }] });
    expectRateLimitHeaders(res);
  });

  it('both headers missing give both elements, tenant first', async () => {
    const res = await request(url());
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toBe(
      JSON.stringify({
        detail: [
          { type: 'missing', loc: ['header', 'tenant'], msg: 'Field required', input: null },
          { type: 'missing', loc: ['header', 'api-key'], msg: 'Field required', input: null },
        ],
      }),
    );
    expectRateLimitHeaders(res);
  });

  it('an unknown key is 401', async () => {
    const tenant = await createTestTenant();
    for (const key of ['nonsense', `${tenant.apiKey.slice(0, -1)}${tenant.apiKey.endsWith('A') ? 'B' : 'A'}`]) {
      const res = await request(url(), { headers: { TENANT: tenant.tenantId, 'API-KEY': key } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Invalid API key' });
      expectRateLimitHeaders(res);
      expect(res.headers.get('ratelimit-policy')).toMatch(/^"anonymous"/);
    }
  });

  it('a revoked key is 401, and the tenant other keys keep working', async () => {
    const tenant = await createTestTenant();
    const issued = await admin(`/tenants/${tenant.tenantId}/api-keys`, { method: 'POST', body: '{}' });
    expect(issued.status).toBe(201);
    const headers = { TENANT: tenant.tenantId, 'API-KEY': issued.body.apiKey };
    expect((await request(url(), { headers })).status).toBe(200);
    expect((await admin(`/api-keys/${issued.body.id}`, { method: 'DELETE' })).status).toBe(204);
    const res = await request(url(), { headers });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'Invalid API key' });
    expectRateLimitHeaders(res);
    expect((await tenant.get('/tenant/public')).status).toBe(200);
  });

  it("another tenant's key is 403", async () => {
    const [a, b] = await Promise.all([createTestTenant('A'), createTestTenant('B')]);
    const res = await request(url(), { headers: { TENANT: a.tenantId, 'API-KEY': b.apiKey } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'API key does not belong to this tenant' });
    expectRateLimitHeaders(res);
  });

  it('the same rules guard /graphql', async () => {
    const [a, b] = await Promise.all([createTestTenant('A'), createTestTenant('B')]);
    const post = (headers: Record<string, string>) =>
      request(`${baseUrl()}/graphql`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ tenant { id } }' }) });
    expect((await post({})).status).toBe(422);
    expect((await post({ TENANT: a.tenantId, 'API-KEY': 'wrong' })).status).toBe(401);
    expect((await post({ TENANT: a.tenantId, 'API-KEY': b.apiKey })).status).toBe(403);
    const ok = await post({ TENANT: a.tenantId, 'API-KEY': a.apiKey });
    expect(ok.body.data.tenant.id).toBe(a.tenantId);
    expectRateLimitHeaders(ok);
  });

  it('an unknown route is a JSON 404 with rate-limit headers', async () => {
    const res = await request(`${baseUrl()}/no/such/route`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Not Found' });
    expectRateLimitHeaders(res);
  });

  it('a known path with a method the contract does not list (OPTIONS, POST on a read) is that same JSON 404', async () => {
    for (const method of ['OPTIONS', 'POST']) {
      const res = await request(`${baseUrl()}/tenant/public`, { method });
      expect([method, res.status, res.body]).toEqual([method, 404, { detail: 'Not Found' }]);
      expectRateLimitHeaders(res);
    }
  });
});
