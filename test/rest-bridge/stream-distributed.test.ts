import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createClient } from 'graphql-sse';
import { notesSubgraph } from '../../subgraphs/notes';
import { serveSubgraph } from '../../platform/serve-subgraph';
import { startSubgraph, type RunningSubgraph } from '../../platform/subgraph-runtime';
import { createTestTenant, type TestTenant } from '../utils/e2e';
import { startFakeLlmServer, type FakeLlmServer } from '../utils/fake-llm-server';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';
import { createLegacyTemplate, type TestTemplate } from '../utils/notes';
import { eventually } from '../utils/eventually';
import { readEventStream } from '../utils/sse';

const SECRET = 'stream-distributed-secret-0123456789';


/**
 * Distributed mode with the model behind it: a gateway in front of a notes subgraph service, both
 * in this process but talking HTTP, so cancellation is seen crossing both hops to the model.
 */
describe('question migration across the gateway -> notes subgraph hop (distributed mode)', () => {
  let fake: FakeLlmServer;
  let notes: RunningSubgraph;
  let service: Awaited<ReturnType<typeof serveSubgraph>>;
  let gateway: InProcessApp;
  let tenant: TestTenant;
  let template: TestTemplate;
  const migrate = (init: RequestInit = {}) =>
    fetch(`${gateway.url}/notes/templates/${template.templateId}/questions/${template.legacyQuestionId}/migrate`, { method: 'POST', headers: tenant.headers, ...init });

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    notes = await startSubgraph(notesSubgraph, process.env.DATABASE_URL!, { migrate: false, settings: { baseUrl: fake.baseUrl, apiKey: null, model: 'fake-model', timeoutMs: 5_000 } });
    service = await serveSubgraph(notes, { port: 0, host: '127.0.0.1', secret: SECRET });
    const notesUrl = `http://127.0.0.1:${(service.server.address() as AddressInfo).port}`;
    // Only the notes subgraph is called here; the others are never reached.
    const unused = 'http://127.0.0.1:9';
    gateway = await startInProcessApp({
      MODE: 'distributed',
      INTERNAL_SECRET: SECRET,
      SUBGRAPH_NOTES_URL: notesUrl,
      SUBGRAPH_TENANT_URL: unused,
      SUBGRAPH_BILLING_URL: unused,
      SUBGRAPH_ANALYTICS_URL: unused,
    });
    tenant = await createTestTenant('Distributed LLM Clinic', gateway.url);
    template = await createLegacyTemplate(tenant);
  });
  afterAll(async () => {
    await gateway.close();
    await service.close();
    await notes.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.mode = 'ok';
    fake.requests.length = 0;
  });

  it('streams the whole migration through the subgraph service', async () => {
    const { events } = await readEventStream(await migrate());
    expect(events.map((e) => e.type)).toEqual([...fake.reply.map(() => 'question'), 'done']);
  });

  it('maps refusals from the subgraph service to HTTP errors', async () => {
    const res = await fetch(`${gateway.url}/notes/templates/${template.templateId}/questions/${template.plainQuestionId}/migrate`, { method: 'POST', headers: tenant.headers });
    expect(res.status).toBe(422);
    expect(((await res.json()) as any).detail[0]).toMatchObject({ type: 'value_error', loc: ['path', 'question_id'], input: template.plainQuestionId });
  });

  it('a REST client that disconnects aborts the subgraph stream and the model request', async () => {
    fake.mode = 'slow';
    const abort = new AbortController();
    const read = await readEventStream(await migrate({ signal: abort.signal }), { abort, stopAfter: (events) => events.length === 1 });
    expect(read.events).toEqual([{ type: 'question', index: 0, question: fake.reply[0] }]);
    await eventually(() => fake.requests[0]?.aborted === true);
  });

  it('a GraphQL subscriber that unsubscribes aborts the relayed stream and the model request', async () => {
    fake.mode = 'slow';
    const client = createClient({ url: `${gateway.url}/graphql/stream`, headers: tenant.headers, retryAttempts: 0 });
    const results = client.iterate({
      query: 'subscription($t: ID!, $q: ID!) { migrateTemplateQuestion(templateId: $t, questionId: $q) { type } }',
      variables: { t: template.templateId, q: template.legacyQuestionId },
    });
    expect((await results.next()).value).toEqual({ data: { migrateTemplateQuestion: { type: 'QUESTION' } } });
    await results.return!();
    client.dispose();
    await eventually(() => fake.requests[0]?.aborted === true);
  });
});

/** The subscription router's HTTP transport when the owning subgraph does not answer at all. */
describe('subscriptions when the owning subgraph service is unreachable (distributed mode)', () => {
  let gateway: InProcessApp;
  let tenant: TestTenant;
  const closedPort = 'http://127.0.0.1:9';

  beforeAll(async () => {
    gateway = await startInProcessApp({
      MODE: 'distributed',
      INTERNAL_SECRET: SECRET,
      SUBGRAPH_NOTES_URL: closedPort,
      SUBGRAPH_TENANT_URL: closedPort,
      SUBGRAPH_BILLING_URL: closedPort,
      SUBGRAPH_ANALYTICS_URL: closedPort,
    });
    tenant = await createTestTenant('Unreachable Notes Clinic', gateway.url);
  });
  afterAll(() => gateway.close());

  it('a REST event stream answers 503 with Retry-After, before any event', async () => {
    const res = await fetch(`${gateway.url}/notes/templates/${randomUUID()}/questions/${randomUUID()}/migrate`, { method: 'POST', headers: tenant.headers });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ detail: 'Subgraph unavailable' });
  });

  it('/graphql/stream answers a coded JSON 502, not a broken event stream', async () => {
    const res = await fetch(`${gateway.url}/graphql/stream`, {
      method: 'POST',
      headers: { ...tenant.headers, accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'subscription($t: ID!, $q: ID!) { migrateTemplateQuestion(templateId: $t, questionId: $q) { type } }',
        variables: { t: randomUUID(), q: randomUUID() },
      }),
    });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ errors: [{ message: 'Subgraph unavailable', extensions: { code: 'SERVICE_UNAVAILABLE' } }] });
  });
});
