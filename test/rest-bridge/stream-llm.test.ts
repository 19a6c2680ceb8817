import { createClient } from 'graphql-sse';
import { createTestTenant, type TestTenant } from '../utils/e2e';
import { startFakeLlmServer, type FakeLlmServer } from '../utils/fake-llm-server';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';
import { createLegacyTemplate, notesFingerprint, type TestTemplate } from '../utils/notes';
import { eventually } from '../utils/eventually';
import { readEventStream } from '../utils/sse';

/** Polls until `check` holds, so cancellation is observed without fixed sleeps. */

describe('question migration on the OpenAI-compatible provider, all-in-one, through real HTTP', () => {
  let fake: FakeLlmServer;
  let server: InProcessApp;
  let tenant: TestTenant;
  let template: TestTemplate;
  const migrate = (init: RequestInit = {}) =>
    fetch(`${server.url}/notes/templates/${template.templateId}/questions/${template.legacyQuestionId}/migrate`, { method: 'POST', headers: tenant.headers, ...init });

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    server = await startInProcessApp({ LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'fake-model', LLM_API_KEY: 'sk-test', LLM_TIMEOUT_MS: '1500' }, { streamHeartbeatMs: 100 });
    tenant = await createTestTenant('LLM Clinic', server.url);
    template = await createLegacyTemplate(tenant);
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.mode = 'ok';
    fake.requests.length = 0;
  });

  it("streams the model's suggestions as question events, then done, and writes nothing", async () => {
    const before = await notesFingerprint(tenant.tenantId);
    const { events } = await readEventStream(await migrate());
    expect(events).toEqual([...fake.reply.map((question, index) => ({ type: 'question', index, question })), { type: 'done', count: fake.reply.length }]);
    expect(fake.requests[0].body.messages[1].content).toContain('Do you smoke? (yes/no)');
    expect(await notesFingerprint(tenant.tenantId)).toEqual(before);
  });

  it('ends with an error event when the model answers garbage or fails', async () => {
    fake.mode = 'garbage';
    expect((await readEventStream(await migrate())).events).toEqual([{ type: 'error', message: 'The language model returned output that is not a list of question suggestions' }]);
    fake.mode = 'status';
    fake.status = 500;
    expect((await readEventStream(await migrate())).events).toEqual([{ type: 'error', message: 'The language model service answered 500' }]);
  });

  it('ends with an error event when the model goes quiet past LLM_TIMEOUT_MS, heartbeats meanwhile', async () => {
    fake.mode = 'slow';
    const started = Date.now();
    const read = await readEventStream(await migrate());
    expect(read.events).toEqual([
      { type: 'question', index: 0, question: fake.reply[0] },
      { type: 'error', message: 'The language model did not answer in time' },
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    expect(read.comments.length).toBeGreaterThanOrEqual(5);
  });

  it('a REST client that disconnects aborts the model request', async () => {
    fake.mode = 'slow';
    const abort = new AbortController();
    const read = await readEventStream(await migrate({ signal: abort.signal }), { abort, stopAfter: (events) => events.length === 1 });
    expect(read.events).toEqual([{ type: 'question', index: 0, question: fake.reply[0] }]);
    await eventually(() => fake.requests[0]?.aborted === true);
  });

  it('a GraphQL subscriber that unsubscribes aborts the model request', async () => {
    fake.mode = 'slow';
    const client = createClient({ url: `${server.url}/graphql/stream`, headers: tenant.headers, retryAttempts: 0 });
    const results = client.iterate({
      query: 'subscription($t: ID!, $q: ID!) { migrateTemplateQuestion(templateId: $t, questionId: $q) { type index } }',
      variables: { t: template.templateId, q: template.legacyQuestionId },
    });
    expect((await results.next()).value).toEqual({ data: { migrateTemplateQuestion: { type: 'QUESTION', index: 0 } } });
    await results.return!();
    client.dispose();
    await eventually(() => fake.requests[0]?.aborted === true);
  });
});
