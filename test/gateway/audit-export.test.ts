import { admin, createTestTenant, request, type TestTenant } from '../utils/e2e';
import { appendAuditRecords, AUDIT_EVENTS_QUERY, type AuditItem } from '../utils/audit-fixture';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';
import { parse as parseCsvText } from 'csv-parse/sync';

/** RFC 4180 CSV into rows of cells (csv-parse). */
const parseCsv = (text: string): string[][] => parseCsvText(text);

const KEY = { kind: 'key' as const, id: '33333333-3333-4333-8333-333333333333' };
const PATIENT = 'b0000000-0000-4000-8000-000000000001';


/**
 * The audit trail's export (`GET /audit/events/export`, issue 33) over real HTTP and PostgreSQL:
 * exactly the filtered records in order, as NDJSON or CSV, streamed as an attachment in pages,
 * recorded as `audit.export` before it starts, refused without `audit:read` or with bad filters.
 */
describe('exporting the audit trail', () => {
  let server: InProcessApp;
  let tenant: TestTenant;
  let ids: string[];

  const exportOf = (query: string, headers = tenant.headers) => request(`${server.url}/audit/events/export${query}`, { headers });
  const listed = async (query: string) => (await request(`${server.url}/audit/events${query}`, { headers: tenant.headers })).body.items as AuditItem[];
  const exports = async (who: TestTenant = tenant) => (await who.graphql(AUDIT_EVENTS_QUERY, { action: 'audit.export', first: 100 })).body.data.auditEvents.nodes as AuditItem[];

  beforeAll(async () => {
    server = await startInProcessApp();
    tenant = await createTestTenant('Audit exporter', server.url);
    ids = await appendAuditRecords(server, tenant.tenantId, [
      { actor: KEY, action: 'patient.read', resourceIds: [PATIENT], occurredAt: '2025-04-01T08:00:00.000Z', requestId: 'plain', clientAddress: '198.51.100.4' },
      { actor: KEY, action: 'patient.create', resourceIds: [PATIENT], occurredAt: '2025-04-02T08:00:00.000Z', requestId: 'has,comma "and" quotes' },
      { actor: { kind: 'system', id: null }, action: 'patient.read', resourceIds: [PATIENT, 'c-2'], occurredAt: '2025-04-03T08:00:00.000Z' },
      { actor: KEY, action: 'gift_card.issue', resourceIds: ['g-9'], occurredAt: '2025-04-04T08:00:00.000Z' },
    ]);
  });
  afterAll(() => server.close());

  it('streams exactly the filtered records as NDJSON, in the list order, and records the export first', async () => {
    const res = await exportOf(`?format=ndjson&resource_id=${PATIENT}&actor_kind=key`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="audit-events-${tenant.tenantId}-\\d{8}T\\d{6}Z\\.ndjson"$`));
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.text.endsWith('\n')).toBe(true);
    const lines = res.text.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((line) => line.id)).toEqual([ids[1], ids[0]]);
    expect(lines).toEqual(await listed(`?resource_id=${PATIENT}&actor_kind=key`));

    const [recorded] = await exports();
    expect(recorded).toMatchObject({ action: 'audit.export', resourceType: 'audit_event', resourceIds: [], outcome: 'success', requestId: res.headers.get('x-request-id'), clientAddress: '127.0.0.1' });
    expect(recorded.actor.kind).toBe('KEY');
  });

  it('writes CSV with a header, RFC 4180 quoting and empty fields for nulls, oldest first when asked', async () => {
    const res = await exportOf('?format=csv&action=patient.create&sort_direction=asc');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(res.headers.get('content-disposition')).toMatch(/\.csv"$/);
    expect(res.text).toContain('"has,comma ""and"" quotes"');
    const rows = parseCsv(res.text);
    expect(rows).toEqual([
      ['id', 'seq', 'occurredAt', 'actorKind', 'actorId', 'action', 'resourceType', 'resourceIds', 'outcome', 'requestId', 'clientAddress'],
      [ids[1], '4', '2025-04-02T08:00:00.000Z', 'key', KEY.id, 'patient.create', 'patient', PATIENT, 'success', 'has,comma "and" quotes', ''],
    ]);
    const both = parseCsv((await exportOf(`?format=csv&action=patient.read&sort_direction=asc`)).text);
    expect(both.slice(1).map((row) => [row[0], row[7]])).toEqual([[ids[0], PATIENT], [ids[2], `${PATIENT} c-2`]]);
  });

  it('walks a long trail page by page, up to and including its own record, in both orders', async () => {
    const big = await createTestTenant('Audit export, long', server.url);
    const entries = Array.from({ length: 1_234 }, (_, i) => ({ actor: KEY, action: 'patient.read', resourceIds: [`p-${i}`], occurredAt: new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString() }));
    await appendAuditRecords(server, big.tenantId, entries);
    const ascending = (await exportOf('?sort_direction=asc', big.headers)).text.trimEnd().split('\n').map((line) => JSON.parse(line) as AuditItem);
    // The tenant's creation and first key, the fixture, then the export's own record.
    expect(ascending).toHaveLength(2 + 1_234 + 1);
    expect(ascending.map((item) => item.seq)).toEqual(Array.from({ length: ascending.length }, (_, i) => i + 1));
    expect(ascending[ascending.length - 1]).toMatchObject({ action: 'audit.export', resourceType: 'audit_event' });
    const newest = await request(`${server.url}/audit/events?per_page=3`, { headers: big.headers });
    expect(newest.body.items.map((item: AuditItem) => item.seq)).toEqual([1_237, 1_236, 1_235]);
    const descending = (await exportOf('', big.headers)).text.trimEnd().split('\n').map((line) => JSON.parse(line) as AuditItem);
    expect(descending.map((item) => item.seq)).toEqual(Array.from({ length: 1_238 }, (_, i) => 1_238 - i));
    const windowed = (await exportOf('?format=csv&from=2025-01-01T00:05:00Z&to=2025-01-01T00:09:59Z', big.headers)).text;
    expect(parseCsv(windowed)).toHaveLength(1 + 300);
  });

  // Backpressure and the walk's end on abort are measured without a database: test/unit/gateway/audit-export-stream.test.ts.
  it('serves on after a client goes away in the middle of an export', async () => {
    const big = await createTestTenant('Audit export, abandoned', server.url);
    await appendAuditRecords(server, big.tenantId, Array.from({ length: 2_000 }, (_, i) => ({ actor: KEY, action: 'patient.read', resourceIds: [`p-${i}`], occurredAt: '2025-02-01T00:00:00Z' })));
    const controller = new AbortController();
    const res = await fetch(`${server.url}/audit/events/export`, { headers: big.headers, signal: controller.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    controller.abort();
    await reader.read().catch(() => undefined);
    expect((await exportOf('?action=gift_card.issue')).status).toBe(200);
    expect((await request(`${server.url}/audit/events?per_page=1`, { headers: big.headers })).body.total).toBe(2 + 2_000 + 1);
  });

  it('refuses a key without audit:read (403) and a bad parameter (422), recording no export', async () => {
    const before = (await exports()).length;
    const { body } = await admin(`/tenants/${tenant.tenantId}/api-keys`, { method: 'POST', body: JSON.stringify({ scopes: ['patients:read'] }) }, server.url);
    const refused = await exportOf('', { TENANT: tenant.tenantId, 'API-KEY': body.apiKey });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'Missing scope "audit:read"' });
    const format = await exportOf('?format=xml');
    expect(format.status).toBe(422);
    expect(format.body.detail).toEqual([{ type: 'enum', loc: ['query', 'format'], msg: "Input should be 'ndjson' or 'csv'", input: 'xml', ctx: { expected: "'ndjson' or 'csv'" } }]);
    const reversed = await exportOf('?from=2025-04-04T00:00:00Z&to=2025-04-01T00:00:00Z&actor_kind=robot');
    expect(reversed.status).toBe(422);
    expect(reversed.body.detail.map((issue: { loc: string[] }) => issue.loc)).toEqual([['query', 'actor_kind']]);
    const backwards = await exportOf('?from=2025-04-04T00:00:00Z&to=2025-04-01T00:00:00Z');
    expect(backwards.body.detail).toEqual([expect.objectContaining({ type: 'value_error', loc: ['query', 'to'] })]);
    expect((await request(`${server.url}/audit/events/export`, { method: 'HEAD', headers: tenant.headers })).status).toBe(405);
    expect((await request(`${server.url}/audit/events/export`, { headers: { TENANT: tenant.tenantId } })).status).toBe(422);
    expect(await exports()).toHaveLength(before);
  });
});
