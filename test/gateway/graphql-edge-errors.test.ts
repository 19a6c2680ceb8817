import { TOTP } from 'otpauth';
import { admin, createTestTenant, request, type HttpResult, type TestTenant } from '../utils/e2e';
import { graphQLRefusal } from '../utils/graphql-refusal';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';
import { SESSION_COOKIE, createTestPerson } from '../utils/people';

const GRAPHQL_RESPONSE = 'application/graphql-response+json; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
/** What Apollo Client sends: GraphQL over HTTP's own type first, JSON as a fallback. */
const APOLLO_ACCEPT = 'application/graphql-response+json,application/json;q=0.9';
const QUERY = JSON.stringify({ query: '{ tenant { id } }' });
/** A subscription a key needs a notes scope for. */
const SUBSCRIPTION = JSON.stringify({ query: 'subscription { migrateTemplateQuestion(questionId: "q", templateId: "t") { __typename } }' });

/**
 * Refusals the edge makes on /graphql before GraphQL runs (docs/api.md, Errors): the status and
 * headers of the REST contract's answer, the body a GraphQL error with the code and extensions
 * the same error carries on the graph, the media type negotiated by Accept; the same refusal on a
 * REST path keeps the contract's `{"detail"}`.
 */
describe('refusals on /graphql are GraphQL errors', () => {
  let server: InProcessApp;
  let tenant: TestTenant;
  const LIMIT = 40;

  const post = (path: string, headers: Record<string, string>, body: string | Buffer = QUERY, accept = APOLLO_ACCEPT) =>
    request(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept, ...headers }, body });

  /** Asserts a GraphQL refusal with this status and code, and returns its one error. */
  function expectRefusal(res: HttpResult, status: number, code: string, type = GRAPHQL_RESPONSE) {
    expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({ status, type });
    const error = graphQLRefusal(res);
    expect(error.extensions.code).toBe(code);
    return error;
  }

  beforeAll(async () => {
    server = await startInProcessApp({ RATE_LIMIT_PER_WINDOW: String(LIMIT), RATE_LIMIT_WINDOW_SECONDS: '60', RATE_LIMIT_AUTH_FAILURES_PER_WINDOW: '50', BODY_LIMIT_BYTES: '2048' });
    tenant = await createTestTenant('GraphQL edge errors', server.url);
  });
  afterAll(() => server.close());

  it('a wrong API key is a 401 UNAUTHENTICATED; on REST the same key is the 401 {"detail"}', async () => {
    const headers = { TENANT: tenant.tenantId, 'API-KEY': 'hpp_wrong' };
    const error = expectRefusal(await post('/graphql', headers), 401, 'UNAUTHENTICATED');
    expect(error).toEqual({ message: 'Invalid API key', extensions: { code: 'UNAUTHENTICATED' } });
    const rest = await request(`${server.url}/tenant/public`, { headers });
    expect({ status: rest.status, type: rest.headers.get('content-type'), body: rest.body }).toEqual({ status: 401, type: JSON_TYPE, body: { detail: 'Invalid API key' } });
  });

  it('picks the media type by Accept as Apollo Server does: JSON without one, or when JSON is preferred', async () => {
    const headers = { TENANT: tenant.tenantId, 'API-KEY': 'hpp_wrong' };
    const cases: [string, string][] = [
      ['', JSON_TYPE],
      ['*/*', JSON_TYPE],
      ['application/json', JSON_TYPE],
      ['application/graphql-response+json', GRAPHQL_RESPONSE],
      [APOLLO_ACCEPT, GRAPHQL_RESPONSE],
      ['text/plain', JSON_TYPE],
    ];
    for (const [accept, type] of cases) {
      const res = await request(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...(accept ? { accept } : {}), ...headers }, body: QUERY });
      expect([accept, res.headers.get('content-type')]).toEqual([accept, type]);
      expect([accept, graphQLRefusal(res).extensions.code]).toEqual([accept, 'UNAUTHENTICATED']);
    }
  });

  it('missing headers are a 422 BAD_USER_INPUT with the issues as `validation`; REST lists them as `detail`', async () => {
    const error = expectRefusal(await post('/graphql', {}), 422, 'BAD_USER_INPUT');
    const issues = error.extensions.validation as { loc: string[] }[];
    expect(issues.map((issue) => issue.loc)).toEqual([['header', 'tenant'], ['header', 'api-key']]);
    const rest = await request(`${server.url}/tenant/public`);
    expect(rest.status).toBe(422);
    expect(rest.body.detail.map((issue: { loc: string[] }) => issue.loc)).toEqual(issues.map((issue) => issue.loc));
  });

  it("another tenant's key is a 403 FORBIDDEN; a missing scope names it in `scope` on both GraphQL endpoints", async () => {
    const other = await createTestTenant('GraphQL edge errors, other', server.url);
    const crossed = { TENANT: other.tenantId, 'API-KEY': tenant.headers['API-KEY'] };
    expect(expectRefusal(await post('/graphql', crossed), 403, 'FORBIDDEN').message).toBe('API key does not belong to this tenant');
    expect((await request(`${server.url}/tenant/public`, { headers: crossed })).body).toEqual({ detail: 'API key does not belong to this tenant' });

    const { body } = await admin(`/tenants/${tenant.tenantId}/api-keys`, { method: 'POST', body: JSON.stringify({ scopes: ['tenant:read'] }) }, server.url);
    const restricted = { TENANT: tenant.tenantId, 'API-KEY': body.apiKey };
    const graph = expectRefusal(await post('/graphql', restricted, JSON.stringify({ query: '{ patients { totalCount } }' })), 403, 'FORBIDDEN');
    expect(graph.extensions).toEqual({ code: 'FORBIDDEN', scope: 'patients:read' });
    const stream = await post('/graphql/stream', restricted, SUBSCRIPTION, 'text/event-stream');
    expect(stream.status).toBe(403);
    expect(graphQLRefusal(stream).extensions).toMatchObject({ code: 'FORBIDDEN', scope: expect.any(String) });
  });

  it('a bad key on /graphql/stream is a 401 UNAUTHENTICATED too', async () => {
    const res = await post('/graphql/stream', { TENANT: tenant.tenantId, 'API-KEY': 'hpp_wrong' }, SUBSCRIPTION, 'text/event-stream');
    expectRefusal(res, 401, 'UNAUTHENTICATED', JSON_TYPE);
  });

  it('a body that is not JSON is a 422 BAD_REQUEST, too large a 413, an unknown encoding a 415; REST keeps {"detail"}', async () => {
    const parse = expectRefusal(await post('/graphql', tenant.headers, '{"query": '), 422, 'BAD_REQUEST');
    expect(parse.message).toBe('JSON decode error');
    expect((parse.extensions.validation as object[])[0]).toMatchObject({ type: 'json_invalid', loc: ['body', 10] });
    const restParse = await post('/analytics/dashboards', tenant.headers, '{"name": ');
    expect(restParse.status).toBe(422);
    expect(restParse.body.detail[0]).toMatchObject({ type: 'json_invalid', loc: ['body', 9] });

    const big = JSON.stringify({ query: `{ tenant { id } } #${'x'.repeat(4096)}` });
    expect(expectRefusal(await post('/graphql', tenant.headers, big), 413, 'BAD_REQUEST').message).toBe('Request body too large');
    expect((await post('/analytics/dashboards', tenant.headers, big)).body).toEqual({ detail: 'Request body too large' });

    const encoded = { ...tenant.headers, 'content-encoding': 'compress' };
    expect(expectRefusal(await post('/graphql', encoded), 415, 'BAD_REQUEST').message).toBe('Unsupported request encoding');
    expect((await post('/analytics/dashboards', encoded, '{"name": "x"}')).body).toEqual({ detail: 'Unsupported request encoding' });
  });

  it('a session without its CSRF token is a 403 FORBIDDEN a plain fetch reads like Apollo Client', async () => {
    const person = await createTestPerson(tenant, 'analyst', undefined, server.url);
    const signedIn = await request(`${server.url}/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tenantId: tenant.tenantId, email: person.email, password: person.password }) });
    const cookie = signedIn.headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`))!.split(';')[0];
    // As Apollo Client's HttpLink reads a non-2xx answer: the parsed body's errors, their codes.
    const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept: APOLLO_ACCEPT, cookie }, body: QUERY });
    expect(response.status).toBe(403);
    const result = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(result.errors.map((error) => [error.extensions.code, error.message])).toEqual([['FORBIDDEN', 'CSRF token missing or invalid']]);
    const rest = await request(`${server.url}/analytics/dashboards`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: '{"name": "x"}' });
    expect({ status: rest.status, body: rest.body }).toEqual({ status: 403, body: { detail: 'CSRF token missing or invalid' } });
  });

  it('a spent budget is a 429 RATE_LIMITED with Retry-After and `retryAfter`; REST the 429 {"detail"}', async () => {
    const spent = await createTestTenant('GraphQL edge errors, spent', server.url);
    let res = await spent.graphql('{ tenant { id } }');
    while (res.status === 200) res = await spent.graphql('{ tenant { id } }');
    const error = expectRefusal(res, 429, 'RATE_LIMITED', JSON_TYPE);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(error).toEqual({ message: 'Rate limit exceeded', extensions: { code: 'RATE_LIMITED', retryAfter: expect.any(Number) } });
    expect(Math.ceil(error.extensions.retryAfter as number)).toBe(retryAfter);
    const rest = await spent.get('/tenant/public');
    expect({ status: rest.status, body: rest.body }).toEqual({ status: 429, body: { detail: 'Rate limit exceeded' } });
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('a two-factor-pending session on /graphql', () => {
  let server: InProcessApp;
  beforeAll(async () => {
    server = await startInProcessApp();
  });
  afterAll(() => server.close());

  it('is a 403 FORBIDDEN GraphQL error until enrolled; REST the 403 {"detail"}', async () => {
    const tenant = await createTestTenant('GraphQL edge errors, TOTP', server.url);
    expect((await tenant.graphql('mutation { setTwoFactorRequired(required: true) }')).body.data.setTwoFactorRequired).toBe(true);
    const person = await createTestPerson(tenant, 'clinician', undefined, server.url);
    const signedIn = await request(`${server.url}/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tenantId: tenant.tenantId, email: person.email, password: person.password }) });
    const session = { cookie: signedIn.headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`))!.split(';')[0], 'x-csrf-token': signedIn.body.csrfToken as string };
    const graph = await request(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept: APOLLO_ACCEPT, ...session }, body: QUERY });
    expect({ status: graph.status, type: graph.headers.get('content-type') }).toEqual({ status: 403, type: GRAPHQL_RESPONSE });
    const error = graphQLRefusal(graph);
    expect(error.extensions).toEqual({ code: 'FORBIDDEN' });
    expect(error.message).toMatch(/^Two-factor enrolment required/);
    const rest = await request(`${server.url}/tenant/public`, { headers: session });
    expect(rest.status).toBe(403);
    expect(rest.body).toEqual({ detail: error.message });

    // Enrolled, the same session reaches the graph.
    const setup = await request(`${server.url}/auth/two-factor/setup`, { method: 'POST', headers: { 'content-type': 'application/json', ...session }, body: '{}' });
    const totp = new TOTP({ secret: setup.body.secret, algorithm: 'SHA1', digits: 6, period: 30 });
    const confirm = await request(`${server.url}/auth/two-factor/confirm`, { method: 'POST', headers: { 'content-type': 'application/json', ...session }, body: JSON.stringify({ secret: setup.body.secret, code: totp.generate() }) });
    expect(confirm.status).toBe(204);
    expect((await request(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...session }, body: QUERY })).body.data.tenant.id).toBe(tenant.tenantId);
  });
});
