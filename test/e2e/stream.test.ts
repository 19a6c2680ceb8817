import { createClient } from 'graphql-sse';
import { baseUrl, createTestTenant, request } from '../utils/e2e';
import { createLegacyTemplate, LEGACY_FORM_SUGGESTIONS } from '../utils/notes';
import { collect, rawSocket, wsClient } from '../utils/ws';

const MIGRATE = 'subscription($t: ID!, $q: ID!) { migrateTemplateQuestion(templateId: $t, questionId: $q) { type index count } }';

describe(`subscriptions over graphql-sse at /graphql/stream (${process.env.E2E_MODE} mode)`, () => {
  it('routes a subscription to its owning subgraph and streams every event', async () => {
    const tenant = await createTestTenant();
    const template = await createLegacyTemplate(tenant);
    const client = createClient({ url: `${baseUrl()}/graphql/stream`, headers: tenant.headers, retryAttempts: 0 });
    const events: unknown[] = [];
    for await (const result of client.iterate<{ migrateTemplateQuestion: { type: string } }>({
      query: MIGRATE,
      variables: { t: template.templateId, q: template.legacyQuestionId },
    })) {
      events.push(result.data!.migrateTemplateQuestion);
    }
    client.dispose();
    const n = LEGACY_FORM_SUGGESTIONS.length;
    expect(events).toEqual([...Array.from({ length: n }, (_, index) => ({ type: 'QUESTION', index, count: null })), { type: 'DONE', index: null, count: n }]);
  });

  it('refuses queries, unknown fields and unauthenticated callers', async () => {
    const tenant = await createTestTenant();
    const post = (body: unknown, headers: Record<string, string> = tenant.headers) =>
      request(`${baseUrl()}/graphql/stream`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify(body) });
    const query = await post({ query: '{ tenant { id } }' });
    expect(query.status).toBe(400);
    expect(query.text).toContain('Only subscriptions');
    expect((await post({ query: 'subscription { nope }' })).status).toBe(400);
    expect((await post({ query: MIGRATE, variables: { t: 'a', q: 'b' } }, {})).status).toBe(422);
  });

  it('serves the same subscription over graphql-ws at /graphql, with the key in connectionParams', async () => {
    const tenant = await createTestTenant();
    const template = await createLegacyTemplate(tenant);
    const client = wsClient(baseUrl(), { tenant: tenant.tenantId, apiKey: tenant.apiKey });
    const { results, error } = await collect(client, { query: MIGRATE, variables: { t: template.templateId, q: template.legacyQuestionId } });
    const query = await collect(client, { query: '{ tenant { id } }' });
    await client.dispose();
    expect(error).toBeUndefined();
    const n = LEGACY_FORM_SUGGESTIONS.length;
    expect(results.map((r) => r.data.migrateTemplateQuestion)).toEqual([...Array.from({ length: n }, (_, index) => ({ type: 'QUESTION', index, count: null })), { type: 'DONE', index: null, count: n }]);
    expect(query.error[0].message).toContain('Only subscriptions');
    expect((await rawSocket(baseUrl(), { tenant: tenant.tenantId, apiKey: 'hpp_wrong' }).closed).code).toBe(4401);
  });
});
