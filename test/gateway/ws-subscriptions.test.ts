import { request as httpRequest } from 'node:http';
import { admin, createTestTenant, request, type TestTenant } from '../utils/e2e';
import { eventually } from '../utils/eventually';
import { startFakeLlmServer, type FakeLlmServer } from '../utils/fake-llm-server';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';
import { createLegacyTemplate, type TestTemplate } from '../utils/notes';
import { createTestPerson, SESSION_COOKIE } from '../utils/people';
import { collect, rawSocket, wsClient } from '../utils/ws';

const MIGRATE = 'subscription($t: ID!, $q: ID!) { migrateTemplateQuestion(templateId: $t, questionId: $q) { type index count } }';
const OWN_ORIGIN = 'http://hpp.test';
const BODY_LIMIT = 4096;

/**
 * GraphQL over WebSocket on `/graphql` (graphql-ws) beside graphql-sse on `/graphql/stream`: the
 * same authentication, scope check, operation checks and per-tenant stream cap, real sockets on a
 * real server. Suggestions come from a fake OpenAI-compatible model, so a stream can be kept open
 * (`slow` sends one suggestion, then nothing).
 */
describe('subscriptions over graphql-ws at /graphql', () => {
  let fake: FakeLlmServer;
  let server: InProcessApp;
  let tenant: TestTenant;
  let template: TestTemplate;
  const migrate = () => ({ query: MIGRATE, variables: { t: template.templateId, q: template.legacyQuestionId } });
  const keyParams = (t = tenant) => ({ tenant: t.tenantId, apiKey: t.apiKey });

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    server = await startInProcessApp({
      LLM_BASE_URL: fake.baseUrl,
      LLM_MODEL: 'fake-model',
      LLM_API_KEY: 'sk-test',
      LLM_TIMEOUT_MS: '30000',
      GRAPHQL_MAX_STREAMS_PER_TENANT: '2',
      BODY_LIMIT_BYTES: String(BODY_LIMIT),
      PUBLIC_URL: OWN_ORIGIN,
    });
    tenant = await createTestTenant('WebSocket clinic', server.url);
    template = await createLegacyTemplate(tenant);
  });
  beforeEach(() => (fake.mode = 'ok'));
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it('streams every event of a subscription, as graphql-sse does, to a key given in connectionParams', async () => {
    const client = wsClient(server.url, keyParams());
    const { results, error } = await collect(client, migrate());
    await client.dispose();
    expect(error).toBeUndefined();
    expect(results.map((r) => r.data.migrateTemplateQuestion)).toEqual([...fake.reply.map((_, index) => ({ type: 'QUESTION', index, count: null })), { type: 'DONE', index: null, count: fake.reply.length }]);
  });

  it('closes a connection with a wrong key 4401, another tenant\'s key 4403, and none 4401', async () => {
    const other = await createTestTenant('Other clinic', server.url);
    const wrong = rawSocket(server.url, { tenant: tenant.tenantId, apiKey: `${tenant.apiKey.slice(0, -4)}xxxx` });
    expect(await wrong.closed).toEqual({ code: 4401, reason: 'Invalid API key' });
    const crossed = rawSocket(server.url, { tenant: tenant.tenantId, apiKey: other.apiKey });
    expect(await crossed.closed).toEqual({ code: 4403, reason: 'API key does not belong to this tenant' });
    expect((await rawSocket(server.url, {}).closed).code).toBe(4401);
    // The graphql-ws client sees the same close.
    const { error } = await collect(wsClient(server.url, { tenant: tenant.tenantId, apiKey: 'hpp_nope' }), migrate());
    expect(error).toMatchObject({ code: 4401 });
  });

  it('closes a connection 4401 at its next subscribe once its key is revoked', async () => {
    const issued = await admin(`/tenants/${tenant.tenantId}/api-keys`, { method: 'POST', body: JSON.stringify({ name: 'revoked soon' }) }, server.url);
    const socket = rawSocket(server.url, { tenant: tenant.tenantId, apiKey: issued.body.apiKey });
    await socket.message('connection_ack');
    expect((await admin(`/api-keys/${issued.body.id}`, { method: 'DELETE' }, server.url)).status).toBe(204);
    socket.socket.send(JSON.stringify({ id: 'after', type: 'subscribe', payload: migrate() }));
    expect(await socket.closed).toEqual({ code: 4401, reason: 'Invalid API key' });
  });

  it('refuses a subscription the key has no scope for, and queries, with a GraphQL error on a connection that stays open', async () => {
    const issued = await admin(`/tenants/${tenant.tenantId}/api-keys`, { method: 'POST', body: JSON.stringify({ scopes: ['tenant:read'] }) }, server.url);
    expect(issued.status).toBe(201);
    const client = wsClient(server.url, { tenant: tenant.tenantId, apiKey: issued.body.apiKey });
    const denied = await collect(client, migrate());
    expect(denied.results).toEqual([]);
    expect(denied.error).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'FORBIDDEN' }) })]);
    expect(denied.error[0].message).toContain('notes:write');
    const query = await collect(client, { query: '{ tenant { id } }' });
    expect(query.error[0].message).toBe('Only subscriptions are served here; send queries to /graphql over HTTP');
    await client.dispose();
  });

  it('counts a tenant\'s graphql-sse and graphql-ws subscriptions against one cap', async () => {
    fake.mode = 'slow';
    const sse = new AbortController();
    const stream = await fetch(`${server.url}/graphql/stream`, {
      method: 'POST',
      headers: { ...tenant.headers, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(migrate()),
      signal: sse.signal,
    });
    expect(stream.status).toBe(200);
    const socket = rawSocket(server.url, keyParams());
    await socket.message('connection_ack');
    socket.socket.send(JSON.stringify({ id: 'one', type: 'subscribe', payload: migrate() }));
    expect((await socket.message('next', 'one')).payload.data.migrateTemplateQuestion).toEqual({ type: 'QUESTION', index: 0, count: null });
    socket.socket.send(JSON.stringify({ id: 'two', type: 'subscribe', payload: migrate() }));
    expect((await socket.message('error', 'two')).payload).toEqual([{ message: 'This tenant has 2 subscriptions open, the most it may; close one first', extensions: { code: 'RATE_LIMITED' } }]);
    // Over SSE too, while the WebSocket holds a slot.
    const third = await request(`${server.url}/graphql/stream`, { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify(migrate()) });
    expect(third.status).toBe(429);
    // Ending the SSE stream gives its slot back.
    sse.abort();
    await eventually(async () => {
      const id = `retry-${socket.messages.length}`;
      socket.socket.send(JSON.stringify({ id, type: 'subscribe', payload: migrate() }));
      const answer = await Promise.race([socket.message('next', id), socket.message('error', id)]);
      return answer.type === 'next';
    }, { what: 'a slot freed by the SSE stream' });
    socket.socket.close();
    await socket.closed;
  });

  it('caps a tenant\'s connections and closes a socket whose message is over the body limit with 1009', async () => {
    const first = rawSocket(server.url, keyParams());
    const second = rawSocket(server.url, keyParams());
    await first.message('connection_ack');
    await second.message('connection_ack');
    expect((await rawSocket(server.url, keyParams()).closed).code).toBe(4429);
    second.socket.send(JSON.stringify({ id: 'big', type: 'subscribe', payload: { query: `subscription { migrateTemplateQuestion(templateId: "${'x'.repeat(BODY_LIMIT)}", questionId: "q") { type } }` } }));
    expect((await second.closed).code).toBe(1009);
    first.socket.close();
    await first.closed;
    // Closed sockets gave their slots back.
    const again = rawSocket(server.url, keyParams());
    await again.message('connection_ack');
    again.socket.close();
  });

  it('takes a person\'s session as a bearer token or from its own origin\'s cookie, never a cookie of another origin', async () => {
    const person = await createTestPerson(tenant, 'clinician', undefined, server.url);
    const signIn = await request(`${server.url}/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tenantId: tenant.tenantId, email: person.email, password: person.password }) });
    const token = /__Host-hpp_session=([^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')![1];
    const cookie = `${SESSION_COOKIE}=${token}`;
    const foreign = rawSocket(server.url, {}, { cookie, origin: 'https://elsewhere.example' });
    expect((await foreign.closed).code).toBe(4403);
    const own = wsClient(server.url, {}, { cookie, origin: OWN_ORIGIN });
    expect((await collect(own, migrate())).results.at(-1).data.migrateTemplateQuestion.type).toBe('DONE');
    await own.dispose();
    const bearer = wsClient(server.url, { authorization: `Bearer ${token}` });
    expect((await collect(bearer, migrate())).results.at(-1).data.migrateTemplateQuestion.type).toBe('DONE');
    await bearer.dispose();
  });

  it('leaves upgrades to other paths to the HTTP routes', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${server.url}/healthz`, { headers: { connection: 'upgrade', upgrade: 'websocket' } });
      req.on('response', (res) => (res.resume(), resolve(res.statusCode!)));
      req.on('upgrade', (_res, socket) => (socket.destroy(), reject(new Error('upgraded'))));
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
  });
});

describe('graphql-ws at shutdown', () => {
  it('closes a socket that never initialised 4408, and at shutdown open sockets 1001 with their subscriptions cancelled', async () => {
    const fake = await startFakeLlmServer();
    fake.mode = 'slow';
    // The headers' timeout is also the time a socket has to send connection_init.
    const server = await startInProcessApp({ LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'fake-model', LLM_API_KEY: 'sk-test', LLM_TIMEOUT_MS: '30000', HTTP_HEADERS_TIMEOUT_SECONDS: '1' });
    try {
      expect((await rawSocket(server.url, null).closed).code).toBe(4408);
      const tenant = await createTestTenant('Closing clinic', server.url);
      const template = await createLegacyTemplate(tenant);
      const socket = rawSocket(server.url, { tenant: tenant.tenantId, apiKey: tenant.apiKey });
      await socket.message('connection_ack');
      socket.socket.send(JSON.stringify({ id: 's', type: 'subscribe', payload: { query: MIGRATE, variables: { t: template.templateId, q: template.legacyQuestionId } } }));
      await socket.message('next', 's');
      await server.app.close();
      expect((await socket.closed).code).toBe(1001);
      // The model request of the cancelled subscription was cut too.
      await eventually(() => fake.requests.at(-1)!.aborted, { what: 'the model request aborted' });
    } finally {
      await server.platform.stop();
      await fake.close();
    }
  });
});
