import { admin, createTestTenant, request, type TestTenant } from '../utils/e2e';
import { appendAuditRecords, AUDIT_EVENTS_QUERY, type AuditItem } from '../utils/audit-fixture';
import { asPage, pageVariables } from '../utils/connection-page';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';

const KEY_1 = { kind: 'key' as const, id: '11111111-1111-4111-8111-111111111111' };
const KEY_2 = { kind: 'key' as const, id: '22222222-2222-4222-8222-222222222222' };
const USER = { kind: 'user' as const, id: 'u-123' };
const PATIENT_1 = 'a0000000-0000-4000-8000-000000000001';
const PATIENT_2 = 'a0000000-0000-4000-8000-000000000002';

/**
 * Reading a tenant's audit trail (issue 33) through the graph (`auditEvents`) and REST
 * (`GET /audit/events`) on the real app and PostgreSQL: each filter narrows the result, pages
 * and order, another tenant's records never show, `audit:read` is needed, bad filters are 422s.
 */
describe('reading the audit trail', () => {
  let server: InProcessApp;
  let tenant: TestTenant;
  let other: TestTenant;
  /** The fixture's records' ids, in the order written (seq 3.. after the tenant's creation and first key). */
  let ids: string[];

  const events = async (variables: Record<string, unknown>, who: TestTenant = tenant) => {
    // The graph pages by cursor; page numbers are offset cursors, as the REST bridge asks (test/utils/connection-page.ts).
    const res = await who.graphql(AUDIT_EVENTS_QUERY, pageVariables(variables));
    expect(res.body.errors).toBeUndefined();
    return asPage<AuditItem>(res.body.data.auditEvents, variables);
  };
  const idsOf = async (variables: Record<string, unknown>) => (await events({ perPage: 100, ...variables })).items.map((item) => item.id);
  const rest = (query: string, headers = tenant.headers) => request(`${server.url}/audit/events${query}`, { headers });

  beforeAll(async () => {
    server = await startInProcessApp();
    tenant = await createTestTenant('Audit reader', server.url);
    other = await createTestTenant('Audit neighbour', server.url);
    ids = await appendAuditRecords(server, tenant.tenantId, [
      { actor: KEY_1, action: 'patient.read', resourceIds: [PATIENT_1, PATIENT_2], occurredAt: '2025-03-01T10:00:00.000Z', requestId: 'r-1', clientAddress: '203.0.113.7' },
      { actor: KEY_2, action: 'patient.read', resourceIds: [PATIENT_2], occurredAt: '2025-03-02T10:00:00.000Z' },
      { actor: USER, action: 'patient.create', resourceIds: [PATIENT_1], occurredAt: '2025-03-03T10:00:00.000Z' },
      { actor: KEY_1, action: 'gift_card.issue', resourceIds: ['g-1'], occurredAt: '2025-03-04T10:00:00.000Z' },
      { actor: { kind: 'system', id: null }, action: 'webhook.disable', occurredAt: '2025-03-05T10:00:00.000Z' },
    ]);
    // The neighbour's records share actors, resources, actions and times: only the tenant tells them apart.
    await appendAuditRecords(server, other.tenantId, [
      { actor: KEY_1, action: 'patient.read', resourceIds: [PATIENT_2], occurredAt: '2025-03-02T10:00:00.000Z' },
      { actor: USER, action: 'patient.create', resourceIds: [PATIENT_1], occurredAt: '2025-03-03T10:00:00.000Z' },
    ]);
  });
  afterAll(() => server.close());

  it('lists the whole trail newest first, with every field, and pages it', async () => {
    const all = await events({ perPage: 100 });
    expect(all.total).toBe(7);
    expect(all.items.map((item) => item.seq)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(all.items.slice(-2).map((item) => [item.action, item.actor.kind])).toEqual([['api_key.issue', 'OPERATOR'], ['tenant.create', 'OPERATOR']]);
    expect(all.items.find((item) => item.id === ids[0])).toEqual({
      id: ids[0], seq: 3, occurredAt: '2025-03-01T10:00:00.000Z', actor: { ...KEY_1, kind: 'KEY' }, action: 'patient.read', resourceType: 'patient',
      resourceIds: [PATIENT_1, PATIENT_2], outcome: 'success', requestId: 'r-1', clientAddress: '203.0.113.7',
    });
    const second = await events({ page: 2, perPage: 3 });
    expect(second).toMatchObject({ total: 7, page: 2, perPage: 3, pages: 3 });
    expect(second.items.map((item) => item.seq)).toEqual([4, 3, 2]);
    const ascending = await events({ page: 3, perPage: 3, sortDirection: 'ASC' });
    expect(ascending.items.map((item) => item.seq)).toEqual([7]);
  });

  it('narrows by actor, actor kind, resource id, action and time range, each and together', async () => {
    expect(await idsOf({ actorId: KEY_1.id })).toEqual([ids[3], ids[0]]);
    expect(await idsOf({ actorKind: 'USER' })).toEqual([ids[2]]);
    expect(await idsOf({ actorKind: 'OPERATOR' })).toHaveLength(2);
    expect(await idsOf({ resourceId: PATIENT_2 })).toEqual([ids[1], ids[0]]);
    expect(await idsOf({ resourceId: PATIENT_1 })).toEqual([ids[2], ids[0]]);
    expect(await idsOf({ action: 'patient.read' })).toEqual([ids[1], ids[0]]);
    expect(await idsOf({ action: 'patient' })).toEqual([]);
    // Both ends inclusive.
    expect(await idsOf({ from: '2025-03-02T10:00:00.000Z', to: '2025-03-04T10:00:00.000Z' })).toEqual([ids[3], ids[2], ids[1]]);
    expect(await idsOf({ from: '2025-03-04T10:00:00.001Z', to: '2025-03-31T00:00:00Z' })).toEqual([ids[4]]);
    expect(await idsOf({ to: '2025-03-01T10:00:00.000Z' })).toEqual([ids[0]]);
    expect(await idsOf({ actorId: KEY_1.id, action: 'patient.read', resourceId: PATIENT_2, from: '2025-03-01T00:00:00Z' })).toEqual([ids[0]]);
  });

  it("never shows another tenant's records", async () => {
    const mine = await events({ perPage: 100 });
    const theirs = await events({ perPage: 100 }, other);
    expect(theirs.total).toBe(4);
    expect(theirs.items.map((item) => item.id)).not.toEqual(expect.arrayContaining([ids[0]]));
    expect(mine.items.map((item) => item.id)).not.toEqual(expect.arrayContaining(theirs.items.map((item) => item.id)));
    expect((await events({ resourceId: PATIENT_2, actorId: KEY_1.id }, other)).items.map((item) => item.occurredAt)).toEqual(['2025-03-02T10:00:00.000Z']);
  });

  it('answers REST with the same page, its filters as snake_case query parameters', async () => {
    const res = await rest(`?resource_id=${PATIENT_2}&action=patient.read&actor_kind=key&per_page=1&page=2&sort_direction=asc`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 2, page: 2, perPage: 1, pages: 2 });
    expect(res.body.items.map((item: AuditItem) => item.id)).toEqual([ids[1]]);
    const window = await rest('?from=2025-03-02&to=2025-03-03T10:00:00Z&actor_id=u-123');
    expect(window.body.items.map((item: AuditItem) => item.id)).toEqual([ids[2]]);
    // The same records; REST spells the actor's kind as the contract does (`key`), the graph `KEY`.
    const graph = await events({ perPage: 20 });
    const spelled = { ...graph, items: graph.items.map((item) => ({ ...item, actor: { ...item.actor, kind: item.actor.kind.toLowerCase() } })) };
    expect((await rest('')).body).toEqual(spelled);
    expect((await rest('')).body.items.map((item: AuditItem) => item.actor.kind)).toContain('key');
  });

  it('refuses bad filters with a 422 naming the parameter', async () => {
    const reversed = await rest('?from=2025-03-05T00:00:00Z&to=2025-03-01T00:00:00Z');
    expect(reversed.status).toBe(422);
    expect(reversed.body.detail).toEqual([
      { type: 'value_error', loc: ['query', 'to'], msg: 'Value error, `to` must not be before `from`', input: '2025-03-01T00:00:00.000Z', ctx: { error: '`to` must not be before `from`' } },
    ]);
    expect((await rest('?actor_kind=robot')).body.detail[0]).toMatchObject({ type: 'enum', loc: ['query', 'actor_kind'] });
    expect((await rest('?from=yesterday')).body.detail[0]).toMatchObject({ type: 'datetime_from_date_parsing', loc: ['query', 'from'] });
    expect((await rest('?per_page=101')).body.detail[0]).toMatchObject({ type: 'less_than_equal', loc: ['query', 'per_page'] });
    expect((await rest(`?action=${'x'.repeat(201)}`)).body.detail[0]).toMatchObject({ type: 'string_too_long', loc: ['query', 'action'] });
    const graph = await tenant.graphql(AUDIT_EVENTS_QUERY, { from: '2025-03-05T00:00:00Z', to: '2025-03-01T00:00:00Z' });
    expect(graph.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', validation: [expect.objectContaining({ loc: ['to'] })] });
  });

  it('needs audit:read on both surfaces', async () => {
    const issue = async (scopes: string[]) => (await admin(`/tenants/${tenant.tenantId}/api-keys`, { method: 'POST', body: JSON.stringify({ scopes }) }, server.url)).body.apiKey as string;
    const reader = { TENANT: tenant.tenantId, 'API-KEY': await issue(['audit:read']) };
    const stranger = { TENANT: tenant.tenantId, 'API-KEY': await issue(['patients:read', 'tenant:read']) };
    expect((await rest('', reader)).status).toBe(200);
    const refused = await rest('', stranger);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'Missing scope "audit:read"' });
    const graph = await request(`${server.url}/graphql`, { method: 'POST', headers: { ...stranger, 'content-type': 'application/json' }, body: JSON.stringify({ query: AUDIT_EVENTS_QUERY }) });
    expect(graph.status).toBe(403);
    expect(graph.body.errors[0]).toEqual({ message: 'Missing scope "audit:read"', extensions: { code: 'FORBIDDEN', scope: 'audit:read' } });
  });
});
