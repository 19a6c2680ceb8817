import { baseUrl, createTestTenant, request, type HttpResult, type TestTenant } from '../utils/e2e';
import { cardBody, createPatient, gql, send } from '../subgraphs/billing/rest-kit';

/**
 * Issue 31, findings 10 and 9: an anonymous lead stored ~1 MB of free-form fields (9,000 keys),
 * payment method metadata had no per-key bounds, and dashboards stored 1 MB layouts (twelve of
 * them made a 12 MB list). Free-form maps now have Stripe's metadata limits (50 keys, keys of at
 * most 40 characters, values of at most 500) and stored JSON documents at most 64 KiB, each a 422
 * naming the field (subgraphs/common/free-form-limits.ts).
 */
const map = (keys: number, value: (i: number) => unknown = () => 'v') => Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, value(i)]));
/** A JSON value of about `bytes` bytes. */
const bulky = (bytes: number) => ({ cells: Array.from({ length: Math.ceil(bytes / 1024) }, (_, i) => ({ i: `cell-${i}`, note: 'x'.repeat(1000) })) });

function expectIssue(res: HttpResult, loc: (string | number)[], reason: RegExp): void {
  expect(res.status).toBe(422);
  expect(res.body.detail).toContainEqual(expect.objectContaining({ type: 'value_error', loc, msg: expect.stringMatching(reason) }));
}

describe(`bounded free-form maps and stored JSON (${process.env.E2E_MODE} mode)`, () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTestTenant('Free-form limits');
  });

  describe('anonymous lead fields', () => {
    let key: string;
    let campaignId: string;
    const lead = (body: unknown) => request(`${baseUrl()}/opportunity/leads/${key}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const count = async () => (await gql(tenant, 'query($id: ID!) { campaign(id: $id) { opportunityCount } }', { id: campaignId })).campaign.opportunityCount;
    beforeAll(async () => {
      const created = await gql(tenant, 'mutation($i: CreateCampaignInput!) { createCampaign(input: $i) { id webhook { webhookKey } } }', { i: { name: 'Leads', startsAt: '2026-03-01T00:00:00Z' } });
      key = created.createCampaign.webhook.webhookKey;
      campaignId = created.createCampaign.id;
    });

    it('refuses 9,000 keys (the finding), 51 keys, long keys, long values and nested values; stores none of them', async () => {
      const huge = await lead({ name: 'Jane', fields: map(9000, () => 'x'.repeat(100)) });
      // Refused either by the anonymous body cap at the edge (413) or by this rule (422): never stored.
      expect([413, 422]).toContain(huge.status);
      expectIssue(await lead({ name: 'Jane', fields: map(51) }), ['body', 'fields'], /at most 50 keys/);
      expectIssue(await lead({ name: 'Jane', fields: { ['k'.repeat(41)]: 'v' } }), ['body', 'fields'], /keys must be 1 to 40 characters/);
      expectIssue(await lead({ name: 'Jane', fields: { note: 'x'.repeat(501) } }), ['body', 'fields', 'note'], /at most 500 characters/);
      expectIssue(await lead({ name: 'Jane', fields: { nested: { a: 1 } } }), ['body', 'fields', 'nested'], /strings, numbers, booleans or null/);
      expect(await count()).toBe(0);
    });

    it('accepts a map within the limits', async () => {
      const res = await lead({ name: 'Jane', fields: { ...map(46, () => 'x'.repeat(500)), adId: 123, consent: true, empty: null, ['k'.repeat(40)]: 'v' } });
      expect(res.status).toBe(201);
      expect(await count()).toBe(1);
    });
  });

  describe('payment method metadata', () => {
    let patientId: string;
    const create = (metadata: unknown) => send(tenant, 'POST', `/user/patient/payment-methods/create?patient_id=${patientId}`, { ...cardBody(), metadata });
    const refused = (res: HttpResult, loc: (string | number)[], reason: RegExp) => {
      expect(res.status).toBe(422);
      expect(res.body.detail).toContainEqual({ loc, msg: expect.stringMatching(reason), type: 'value_error' });
    };
    beforeAll(async () => {
      patientId = await createPatient(tenant);
    });

    it('has Stripe limits: 50 keys, 40-character keys, 500-character string values', async () => {
      refused(await create(map(51)), ['body', 'metadata'], /at most 50 keys/);
      refused(await create({ ['k'.repeat(41)]: 'v' }), ['body', 'metadata'], /keys must be 1 to 40 characters/);
      refused(await create({ note: 'x'.repeat(501) }), ['body', 'metadata', 'note'], /at most 500 characters/);
      refused(await create({ count: 3 }), ['body', 'metadata', 'count'], /values must be strings/);
      refused(await create({ nested: { a: 'b' } }), ['body', 'metadata', 'nested'], /values must be strings/);
      const methods = await gql(tenant, 'query($id: ID!) { patient(id: $id) { paymentMethods { id } } }', { id: patientId });
      expect(methods.patient.paymentMethods).toEqual([]);
      const ok = await create(map(50, () => 'x'.repeat(500)));
      expect(ok.status).toBe(200);
    });
  });

  describe('stored JSON documents', () => {
    it('refuses a dashboard layout over 64 KiB, on create and update; accepts one just under', async () => {
      expectIssue(await send(tenant, 'POST', '/analytics/dashboards', { name: 'Big', layout: bulky(100 * 1024) }), ['body', 'layout'], /at most 65536 bytes of JSON/);
      const created = await send(tenant, 'POST', '/analytics/dashboards', { name: 'Fits', layout: bulky(60 * 1024) });
      expect(created.status).toBe(201);
      expectIssue(await send(tenant, 'PUT', `/analytics/dashboards/${created.body.id}`, { layout: bulky(1024 * 1024 - 4096) }), ['body', 'layout'], /at most 65536 bytes/);
      const list = await tenant.get('/analytics/dashboards?per_page=100');
      expect(list.body.items.map((d: { name: string }) => d.name)).toEqual(['Fits']);
    });

    it('refuses a widget query over 64 KiB, on create and update', async () => {
      const dashboard = await send(tenant, 'POST', '/analytics/dashboards', { name: 'Widgets' });
      const query = { measures: ['revenue.total'], filters: [{ member: 'revenue.itemName', operator: 'equals', values: Array.from({ length: 2000 }, (_, i) => `item-${i}-${'x'.repeat(40)}`) }] };
      expectIssue(await send(tenant, 'POST', '/analytics/widgets', { dashboardId: dashboard.body.id, name: 'W', chartType: 'line', query }), ['body', 'query'], /at most 65536 bytes of JSON/);
      const widget = await send(tenant, 'POST', '/analytics/widgets', { dashboardId: dashboard.body.id, name: 'W', chartType: 'line', query: {} });
      expect(widget.status).toBe(201);
      expectIssue(await send(tenant, 'PUT', `/analytics/widgets/${widget.body.id}`, { query }), ['body', 'query'], /at most 65536 bytes/);
    });
  });
});
