import { admin, baseUrl, createTestTenant, request } from '../utils/e2e';
import { graphQLRefusal } from '../utils/graphql-refusal';

describe(`the edge (${process.env.E2E_MODE} mode)`, () => {
  it('echoes a valid X-Request-Id and makes one up otherwise', async () => {
    const tenant = await createTestTenant();
    const echoed = await tenant.get('/tenant/public', { 'X-Request-Id': 'trace-abc.123' });
    expect(echoed.headers.get('x-request-id')).toBe('trace-abc.123');
    const replaced = await tenant.get('/tenant/public', { 'X-Request-Id': 'bad id with spaces' });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("sends OWASP's API security headers on JSON answers, and no x-powered-by", async () => {
    const tenant = await createTestTenant();
    for (const res of [await request(`${baseUrl()}/healthz`), await tenant.get('/tenant/public'), await request(`${baseUrl()}/no/such/route`)]) {
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      // Headers for documents a browser renders are a page's only.
      for (const name of ['cross-origin-opener-policy', 'origin-agent-cluster', 'referrer-policy', 'x-xss-protection', 'x-dns-prefetch-control']) expect(res.headers.get(name)).toBeNull();
      expect(res.headers.get('x-powered-by')).toBeNull();
    }
  });

  it("sends helmet's page headers over them on a page a browser renders", async () => {
    const res = await fetch(`${baseUrl()}/docs`);
    await res.text();
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves liveness and readiness (which checks the database)', async () => {
    expect((await request(`${baseUrl()}/healthz`)).body).toEqual({ status: 'ok' });
    const ready = await request(`${baseUrl()}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });

  it('a malformed JSON body is a 422 json_invalid with the character offset', async () => {
    const res = await admin('/tenants', { method: 'POST', body: '{"name": }' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [{ type: 'json_invalid', loc: ['body', 9], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting value' } }] });
  });

  it('a malformed JSON body to /graphql is the same 422 as a GraphQL error, never a 500 or HTML', async () => {
    const tenant = await createTestTenant();
    const res = await request(`${baseUrl()}/graphql`, { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json' }, body: '{"query": "{ tenant { id } }",}' });
    expect(res.status).toBe(422);
    const error = graphQLRefusal(res);
    expect(error).toMatchObject({ message: 'JSON decode error', extensions: { code: 'BAD_REQUEST' } });
    expect((error.extensions.validation as object[])[0]).toMatchObject({ type: 'json_invalid', loc: ['body', 30], msg: 'JSON decode error' });
  });

  it('a subgraph service answers a body it cannot read in JSON too, never an HTML page (distributed mode)', async () => {
    const subgraph = process.env.E2E_SUBGRAPH_TENANT_URL;
    if (!subgraph) return;
    const headers = { 'content-type': 'application/json', 'x-internal-secret': process.env.E2E_INTERNAL_SECRET! };
    for (const extra of [{}, { 'content-encoding': 'gzip' }] as Record<string, string>[]) {
      const res = await request(`${subgraph}/graphql`, { method: 'POST', headers: { ...headers, ...extra }, body: '{"query": ' });
      expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({ status: 400, type: 'application/json; charset=utf-8' });
      expect(res.body).toEqual({ detail: 'The request could not be read' });
    }
  });

  it('a body over the size limit is 413 JSON', async () => {
    const res = await admin('/tenants', { method: 'POST', body: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ detail: 'Request body too large' });
  });

  it('publishes OpenAPI 3.1 with version 1.0 and a local docs page', async () => {
    const doc = await request(`${baseUrl()}/openapi.json`);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(doc.body.info.version).toBe('1.0');
    // Relative, so "Try it out" at /docs stays on the page's origin whatever host it was opened at.
    expect(doc.body.servers).toEqual([{ url: '/' }]);
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/tenant/public', '/tenant/private']));
    const page = await request(`${baseUrl()}/docs`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('/docs/assets/swagger-ui-bundle.js');
    expect(page.text).not.toMatch(/https?:\/\/(cdn|unpkg)/);
  });
});

describe(`operator control plane (${process.env.E2E_MODE} mode)`, () => {
  it('refuses a wrong operator token with 401', async () => {
    const res = await request(`${baseUrl()}/admin/tenants`, { method: 'POST', headers: { authorization: 'Bearer nope', 'content-type': 'application/json' }, body: '{"name":"x"}' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'Invalid operator token' });
  });

  it('validates the tenant body', async () => {
    const missing = await admin('/tenants', { method: 'POST', body: '{}' });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ detail: [{ type: 'missing', loc: ['body', 'name'], msg: 'Field required', input: {} }] });
    const blank = await admin('/tenants', { method: 'POST', body: '{"name":"  "}' });
    expect(blank.body.detail[0]).toMatchObject({ type: 'value_error', loc: ['body', 'name'] });
  });

  it('issues, lists and revokes keys; unknown ids are 404', async () => {
    const tenant = await createTestTenant();
    const issued = await admin(`/tenants/${tenant.tenantId}/api-keys`, { method: 'POST', body: '{"name":"reporting"}' });
    expect(issued.status).toBe(201);
    expect(issued.body.apiKey).toMatch(/^hpp_/);
    const listed = await admin(`/tenants/${tenant.tenantId}/api-keys`);
    expect(listed.body).toHaveLength(2);
    expect(JSON.stringify(listed.body)).not.toContain(issued.body.apiKey);
    expect((await admin(`/api-keys/${issued.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await admin('/api-keys/00000000-0000-0000-0000-000000000000', { method: 'DELETE' })).status).toBe(404);
    expect((await admin('/api-keys/not-a-uuid', { method: 'DELETE' })).status).toBe(404);
    expect((await admin('/tenants/not-a-uuid/api-keys', { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('creates a tenant with demo data when asked', async () => {
    const res = await admin('/tenants', { method: 'POST', body: JSON.stringify({ name: 'Demo Two', demoData: true }) });
    expect(res.status).toBe(201);
    const pub = await request(`${baseUrl()}/tenant/public`, { headers: { TENANT: res.body.tenant.id, 'API-KEY': res.body.apiKey } });
    expect(pub.body).toMatchObject({ name: 'Demo Two', timezone: 'America/New_York', primaryColor: '#2F6FEB' });
  });
});
