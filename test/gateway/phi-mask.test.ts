import { admin, request, type HttpResult } from '../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';

/**
 * Minimum necessary (docs/access.md): a caller without `patients:read` sees patient names, e-mails
 * and phones masked wherever they appear, on `/graphql` and the REST routes alike; a caller with
 * it, or a full key, sees them whole. Data from the demo seeders (real subgraphs, real PostgreSQL).
 */
describe('patient fields masked without patients:read', () => {
  let server: InProcessApp;
  let tenantId: string;
  const keys: Record<'full' | 'billing' | 'billingPatients' | 'analytics', string> = { full: '', billing: '', billingPatients: '', analytics: '' };

  const issue = async (scopes: string[]) => (await admin(`/tenants/${tenantId}/api-keys`, { method: 'POST', body: JSON.stringify({ scopes }) }, server.url)).body.apiKey as string;
  const graphql = (key: string, query: string): Promise<HttpResult> =>
    request(`${server.url}/graphql`, { method: 'POST', headers: { TENANT: tenantId, 'API-KEY': key, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  const get = (key: string, path: string) => request(`${server.url}${path}`, { headers: { TENANT: tenantId, 'API-KEY': key } });

  beforeAll(async () => {
    server = await startInProcessApp();
    const created = await admin('/tenants', { method: 'POST', body: JSON.stringify({ name: 'Mask Clinic', demoData: true }) }, server.url);
    tenantId = created.body.tenant.id;
    keys.full = created.body.apiKey;
    keys.billing = await issue(['billing:read']);
    keys.billingPatients = await issue(['billing:read', 'patients:read']);
    keys.analytics = await issue(['analytics:read']);
  });
  afterAll(() => server.close());

  it('masks gift cards and members on /graphql, aliases and fragments included, for billing:read alone', async () => {
    const query = `{ issuedGiftCards(first: 50) { nodes { id buyer: purchasingPatientName ...R } } members(first: 50) { edges { node { id patient { firstName lastName email } } } } }
      fragment R on IssuedGiftCard { recipientPatientName recipientPatientEmail recipientPatientPhone }`;
    const whole = await graphql(keys.billingPatients, query);
    const masked = await graphql(keys.billing, query);
    expect(whole.body.errors).toBeUndefined();
    expect(masked.body.errors).toBeUndefined();
    const cards = whole.body.data.issuedGiftCards.nodes.filter((card: { buyer: string | null }) => card.buyer);
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) {
      const seen = masked.body.data.issuedGiftCards.nodes.find((other: { id: string }) => other.id === card.id);
      expect(seen.buyer).toBe(`${[...card.buyer][0]}***`);
      if (card.recipientPatientEmail) expect(seen.recipientPatientEmail).toBe(`${card.recipientPatientEmail[0]}***@***`);
      if (card.recipientPatientPhone) expect(seen.recipientPatientPhone).toMatch(/^\*\*\*\d{0,2}$/);
    }
    expect(JSON.stringify(masked.body)).not.toContain(cards[0].buyer);
    const members = whole.body.data.members.edges.map((edge: { node: unknown }) => edge.node).filter((member: { patient: unknown }) => member.patient);
    for (const member of members) {
      const seen = masked.body.data.members.edges.map((edge: { node: { id: string } }) => edge.node).find((other: { id: string }) => other.id === member.id);
      expect(seen.patient).toEqual({ firstName: `${member.patient.firstName[0]}***`, lastName: `${member.patient.lastName[0]}***`, email: member.patient.email ? `${member.patient.email[0]}***@***` : member.patient.email });
    }
    expect(await graphql(keys.full, query).then((res) => res.body.data)).toEqual(whole.body.data);
  });

  it('masks revenue lines on the REST route for analytics:read alone', async () => {
    const path = '/analytics/dashboards/product-sales-breakdown/revenue-breakdown?timezone=UTC&per_page=100';
    const whole = await get(keys.full, path);
    const masked = await get(keys.analytics, path);
    expect(whole.status).toBe(200);
    expect(masked.status).toBe(200);
    const named = whole.body.items.filter((line: { patientName: string | null }) => line.patientName);
    expect(named.length).toBeGreaterThan(0);
    for (const line of named) {
      const seen = masked.body.items.find((other: { id: string }) => other.id === line.id);
      expect(seen).toEqual({ ...line, patientName: `${[...line.patientName][0]}***` });
    }
  });

  it('masks patient names in the query engine’s rows grouped by patient (a widget’s grouping) for analytics:read alone', async () => {
    const query = `{ byPatient: executeAnalyticsQuery(query: { measures: ["revenue.netAmount"], dimensions: ["revenue.patient", "revenue.location"], limit: 500 }) { data } }`;
    const whole = await graphql(keys.full, query);
    const masked = await graphql(keys.analytics, query);
    expect(whole.body.errors).toBeUndefined();
    expect(masked.body.errors).toBeUndefined();
    const rows: Record<string, unknown>[] = whole.body.data.byPatient.data;
    const named = rows.filter((row) => typeof row['revenue.patient'] === 'string');
    expect(named.length).toBeGreaterThan(0);
    // Row for row the same figures and locations; only the patient's name is masked.
    expect(masked.body.data.byPatient.data).toEqual(rows.map((row) => (typeof row['revenue.patient'] === 'string' ? { ...row, 'revenue.patient': `${[...(row['revenue.patient'] as string)][0]}***` } : row)));
    for (const row of named) expect(JSON.stringify(masked.body)).not.toContain(`"${row['revenue.patient']}"`);
  });
});
