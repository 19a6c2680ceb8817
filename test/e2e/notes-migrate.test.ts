import { randomUUID } from 'node:crypto';
import { createClient } from 'graphql-sse';
import { baseUrl, createTestTenant, request, type TestTenant } from '../utils/e2e';
import { createLegacyTemplate, LEGACY_FORM_SUGGESTIONS, notesFingerprint, type TestTemplate } from '../utils/notes';
import { readEventStream } from '../utils/sse';

const SUBSCRIPTION = `subscription($t: ID!, $q: ID!) {
  migrateTemplateQuestion(templateId: $t, questionId: $q) { type index count message question { kind label helpText options required } }
}`;
const migratePath = (templateId: string, questionId: string) => `/notes/templates/${encodeURIComponent(templateId)}/questions/${encodeURIComponent(questionId)}/migrate`;
const migrate = (who: { headers: Record<string, string> }, templateId: string, questionId: string, init: RequestInit = {}) =>
  fetch(`${baseUrl()}${migratePath(templateId, questionId)}`, { method: 'POST', headers: who.headers, ...init });

/** Every event the graphql-sse client sees, read with the library's own client. */
async function subscribe(tenant: TestTenant, templateId: string, questionId: string): Promise<{ data?: any; errors?: readonly any[] }[]> {
  const client = createClient({ url: `${baseUrl()}/graphql/stream`, headers: tenant.headers, retryAttempts: 0 });
  const results = [];
  try {
    for await (const result of client.iterate({ query: SUBSCRIPTION, variables: { t: templateId, q: questionId } })) results.push(result);
  } finally {
    client.dispose();
  }
  return results;
}

const expectedEvents = [
  ...LEGACY_FORM_SUGGESTIONS.map((question, index) => ({ type: 'question', index, question })),
  { type: 'done', count: LEGACY_FORM_SUGGESTIONS.length },
];

describe(`question migration stream (${process.env.E2E_MODE} mode)`, () => {
  let tenant: TestTenant;
  let template: TestTemplate;
  beforeAll(async () => {
    tenant = await createTestTenant('Migration Clinic');
    template = await createLegacyTemplate(tenant);
  });

  it('POST .../migrate streams one data line per suggestion, then done, with the streaming headers', async () => {
    const res = await migrate(tenant, template.templateId, template.legacyQuestionId);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    expect(res.headers.get('connection')).toBe('keep-alive');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('x-ratelimit-remaining')).toBeTruthy();
    const { events } = await readEventStream(res);
    expect(events).toEqual(expectedEvents);
  });

  it('writes each event as exactly one `data:` line', async () => {
    const text = await (await migrate(tenant, template.templateId, template.legacyQuestionId)).text();
    const frames = text.split('\n\n').filter(Boolean);
    expect(frames).toHaveLength(expectedEvents.length);
    for (const frame of frames) expect(frame).toMatch(/^data: \{[^\n]*\}$/);
  });

  it('the GraphQL subscription, read with graphql-sse, sends the same events', async () => {
    const results = await subscribe(tenant, template.templateId, template.legacyQuestionId);
    expect(results.every((r) => r.errors === undefined)).toBe(true);
    const events = results.map((r) => r.data.migrateTemplateQuestion);
    // The same events, in the graph's enum spellings (`QUESTION`, `TEXT_AREA`) where REST keeps the contract's.
    const graphSpelling = (q: any) => q && { ...q, kind: q.kind.toUpperCase() };
    expect(events).toEqual(
      expectedEvents.map((e: any) => ({ type: e.type.toUpperCase(), index: e.index ?? null, count: e.count ?? null, message: null, question: graphSpelling(e.question) ?? null })),
    );
  });

  it('writes nothing: the notes tables are identical before and after full streams', async () => {
    const before = await notesFingerprint(tenant.tenantId);
    expect(before.note_templates.rows).toBe(1);
    expect(before.template_questions.rows).toBe(2);
    await readEventStream(await migrate(tenant, template.templateId, template.legacyQuestionId));
    await subscribe(tenant, template.templateId, template.legacyQuestionId);
    expect(await notesFingerprint(tenant.tenantId)).toEqual(before);
  });

  it('a client that leaves after the first event leaves the server serving', async () => {
    const abort = new AbortController();
    const res = await migrate(tenant, template.templateId, template.legacyQuestionId, { signal: abort.signal });
    const { events } = await readEventStream(res, { stopAfter: (seen) => seen.length >= 1, abort });
    expect(events[0]).toEqual(expectedEvents[0]);
    const again = await readEventStream(await migrate(tenant, template.templateId, template.legacyQuestionId));
    expect(again.events).toEqual(expectedEvents);
  });

  describe('refusals before the stream starts are plain JSON errors', () => {
    const notFound = (detail: string) => ({ status: 404, body: { detail } });
    const post = async (templateId: string, questionId: string, who = tenant) => {
      const res = await request(`${baseUrl()}${migratePath(templateId, questionId)}`, { method: 'POST', headers: who.headers });
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      return { status: res.status, body: res.body };
    };

    it('unknown template: 404, whatever the shape of its id', async () => {
      for (const id of [randomUUID(), 'not-a-uuid', '12345', "x' or 1=1 --", 'ü'.repeat(300)]) {
        expect(await post(id, template.legacyQuestionId)).toEqual(notFound('Note template not found'));
      }
    });

    it('unknown question, or a question of another template: 404', async () => {
      const other = await createLegacyTemplate(tenant);
      for (const id of [randomUUID(), 'nope', other.legacyQuestionId]) {
        expect(await post(template.templateId, id)).toEqual(notFound('Question not found'));
      }
    });

    it("another tenant's template and question: 404, exactly like unknown ones", async () => {
      const stranger = await createTestTenant('Other Clinic');
      expect(await post(template.templateId, template.legacyQuestionId, stranger)).toEqual(notFound('Note template not found'));
      const theirs = await createLegacyTemplate(stranger);
      expect(await post(template.templateId, theirs.legacyQuestionId)).toEqual(notFound('Question not found'));
      expect(await post(theirs.templateId, theirs.legacyQuestionId)).toEqual(notFound('Note template not found'));
    });

    it('a question that is not a legacy text area: 422 with input and ctx', async () => {
      const res = await request(`${baseUrl()}${migratePath(template.templateId, template.plainQuestionId)}`, { method: 'POST', headers: tenant.headers });
      expect(res.status).toBe(422);
      expect(res.text).toBe(
        JSON.stringify({
          detail: [
            {
              type: 'value_error',
              loc: ['path', 'question_id'],
              msg: 'Value error, only legacy text-area questions can be migrated',
              input: template.plainQuestionId,
              ctx: { error: 'only legacy text-area questions can be migrated' },
            },
          ],
        }),
      );
    });

    it('a text-area question that is not legacy: 422 too', async () => {
      const added = await tenant.graphql('mutation($t: ID!) { addTemplateQuestion(templateId: $t, input: {kind: TEXT_AREA, label: "Notes"}) { id } }', { t: template.templateId });
      const res = await post(template.templateId, added.body.data.addTemplateQuestion.id);
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ type: 'value_error', loc: ['path', 'question_id'] });
    });

    it('missing credentials: the usual 422 at the headers', async () => {
      const res = await request(`${baseUrl()}${migratePath(template.templateId, template.legacyQuestionId)}`, { method: 'POST' });
      expect(res.status).toBe(422);
      expect(res.body.detail.map((d: any) => d.loc)).toEqual([
        ['header', 'tenant'],
        ['header', 'api-key'],
      ]);
    });
  });

  it('over GraphQL the same refusals arrive as one result with coded errors', async () => {
    const [unknown] = await subscribe(tenant, randomUUID(), template.legacyQuestionId);
    expect(unknown.data).toBeUndefined();
    expect(unknown.errors).toEqual([expect.objectContaining({ message: 'Note template not found', extensions: { code: 'NOT_FOUND' } })]);
    const [plain] = await subscribe(tenant, template.templateId, template.plainQuestionId);
    expect(plain.errors?.[0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      validation: [
        {
          type: 'value_error',
          loc: ['questionId'],
          msg: 'Value error, only legacy text-area questions can be migrated',
          input: template.plainQuestionId,
          ctx: { error: 'only legacy text-area questions can be migrated' },
        },
      ],
    });
  });

  it("migrates every demo template's legacy question into several kinds of questions", async () => {
    const created = await request(`${baseUrl()}/admin/tenants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${process.env.E2E_OPERATOR_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Demo Notes', demoData: true }),
    });
    const demo = { headers: { TENANT: created.body.tenant.id, 'API-KEY': created.body.apiKey } };
    const list = await request(`${baseUrl()}/graphql`, {
      method: 'POST',
      headers: { ...demo.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ noteTemplates(sortDirection: ASC) { totalCount nodes { id name questions { id isLegacy kind } } } }' }),
    });
    const templates = list.body.data.noteTemplates.nodes;
    expect(templates.map((t: any) => t.name)).toEqual(['New patient intake', 'Pain assessment', 'Medication history']);
    for (const t of templates) {
      const legacy = t.questions.find((q: any) => q.isLegacy);
      expect(legacy.kind).toBe('TEXT_AREA');
      const { events } = await readEventStream(await migrate(demo, t.id, legacy.id));
      const done = events.at(-1);
      expect(done).toEqual({ type: 'done', count: events.length - 1 });
      expect(new Set(events.slice(0, -1).map((e) => e.question.kind)).size).toBeGreaterThanOrEqual(4);
    }
  });
});

describe(`question migration: malformed paths (${process.env.E2E_MODE} mode)`, () => {
  it('a path segment that is not valid percent-encoding is a 4xx JSON answer, never a 500', async () => {
    const tenant = await createTestTenant();
    const res = await request(`${baseUrl()}/notes/templates/%ZZ/questions/%E0%A4%A/migrate`, { method: 'POST', headers: tenant.headers });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Not Found' });
  });
});
