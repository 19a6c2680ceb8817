import { Client } from 'pg';
import { startSubgraph, type RunningSubgraph } from '../../../platform/subgraph-runtime';
import { TenantScope } from '../../../platform/tenant-scope';
import { analyticsSubgraph } from '../../../subgraphs/analytics';
import { DashboardService } from '../../../subgraphs/analytics/services/dashboard.service';
import { auditRecords, changeBy, refusedAudit, runAudited, AUDIT_CLIENT_ADDRESS, AUDIT_KEY_ID, type AuditedRun } from '../../utils/audit-records';
import { startBillingKit, type BillingKit } from '../billing/billing-kit';

const CHARGE = 'mutation($i: RecordChargeItemInput!) { recordChargeItem(input: $i) { id } }';
const PACKAGE = 'mutation($i: RecordSoldPackageInput!) { recordSoldPackage(input: $i) { id } }';
const QUERY = 'query($q: JSON!) { executeAnalyticsQuery(query: $q) { data } }';
const WIDGET_QUERY = { measures: ['revenue.netAmount'], timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'month' }] };

/**
 * Analytics in the audit trail (docs/audit.md): its changes, each recorded in its transaction (a
 * public lead in its campaign's tenant, as `system`); revenue lines naming patients and query
 * answers grouped by patient are PHI reads; aggregates that name nobody are not.
 */
describe('analytics subgraph: audit records (real PostgreSQL)', () => {
  let kit: BillingKit;
  let analytics: RunningSubgraph;
  let db: Client;

  beforeAll(async () => {
    kit = await startBillingKit();
    analytics = await startSubgraph(analyticsSubgraph, process.env.DATABASE_URL!, { migrate: false, publicUrl: 'https://api.example.test' });
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await analytics.close();
    await kit.close();
  });

  const run = async (tenantId: string | null, query: string, variables?: Record<string, unknown>, identity = {}): Promise<AuditedRun> => {
    const result = await runAudited(analytics, tenantId, query, variables, identity);
    expect(result.errors).toBeUndefined();
    return result;
  };
  /** The records analytics wrote (the set-up's, through the other subgraphs, are another request's). */
  const records = async (tenantId: string, since: AuditedRun[]) => {
    const ours = new Set(since.map((r) => r.requestId));
    return (await auditRecords(db, tenantId, analytics, kit.billing, kit.tenantGraph)).filter((row) => ours.has(row.request_id!));
  };

  it('records every mutation with the ids it changed; a public lead goes to its campaign tenant as system', async () => {
    const t = await kit.tenant('Audit Analytics');
    const dashboard = await run(t, 'mutation { createDashboard(input: { name: "Revenue" }) { id } }');
    const dashboardId = dashboard.data.createDashboard.id;
    const renamed = await run(t, 'mutation($id: ID!) { updateDashboard(id: $id, input: { name: "Revenue 2" }) { id } }', { id: dashboardId });
    const widget = await run(t, 'mutation($i: CreateWidgetInput!) { createWidget(input: $i) { id } }', { i: { dashboardId, name: 'Net', chartType: 'BAR', query: WIDGET_QUERY } });
    const widgetId = widget.data.createWidget.id;
    const moved = await run(t, 'mutation($id: ID!) { updateWidget(id: $id, input: { name: "Net by month" }) { id } }', { id: widgetId });
    const gone = await run(t, 'mutation($id: ID!) { deleteWidget(id: $id) }', { id: widgetId });
    const dropped = await run(t, 'mutation($id: ID!) { deleteDashboard(id: $id) }', { id: dashboardId });
    const campaign = await run(t, 'mutation { createCampaign(input: { name: "Spring" }) { id webhook { webhookKey } } }');
    const campaignId = campaign.data.createCampaign.id;
    const paused = await run(t, 'mutation($id: ID!) { updateCampaign(id: $id, input: { description: "Paused" }) { id } }', { id: campaignId });
    // The lead endpoint has no key and no tenant: the context's actor is absent.
    const lead = await run(null, 'mutation($k: String!) { submitCampaignLead(webhookKey: $k, input: { email: "lead@example.com" }) { opportunityId } }', { k: campaign.data.createCampaign.webhook.webhookKey }, { actor: null });

    const all = [dashboard, renamed, widget, moved, gone, dropped, campaign, paused, lead];
    expect(await records(t, all)).toMatchObject([
      changeBy(dashboard, 'dashboard.create', 'dashboard', [dashboardId]),
      changeBy(renamed, 'dashboard.update', 'dashboard', [dashboardId]),
      changeBy(widget, 'widget.create', 'widget', [widgetId]),
      changeBy(moved, 'widget.update', 'widget', [widgetId]),
      changeBy(gone, 'widget.delete', 'widget', [widgetId]),
      changeBy(dropped, 'dashboard.delete', 'dashboard', [dashboardId]),
      changeBy(campaign, 'campaign.create', 'campaign', [campaignId]),
      changeBy(paused, 'campaign.update', 'campaign', [campaignId]),
      { ...changeBy(lead, 'campaign_lead.submit', 'campaign_lead', [lead.data.submitCampaignLead.opportunityId]), actor_kind: 'system', actor_id: null, client_address: AUDIT_CLIENT_ADDRESS },
    ]);
  });

  it('records the revenue lines naming patients, and the patients a query answer is grouped by; not aggregates naming nobody', async () => {
    const t = await kit.tenant('Audit Revenue');
    const [ann, bob] = [await kit.patient(t, { firstName: 'Ann', lastName: 'Able' }), await kit.patient(t, { firstName: 'Bob', lastName: 'Baker' })];
    const location = await kit.location(t);
    const line = async (patientId: string) =>
      (await runAudited(kit.billing, t, CHARGE, { i: { locationId: location, patientId, itemCategory: 'Physio', itemType: 'SERVICE', itemName: 'Visit', paymentMedium: 'CARD', grossCents: 9000, discountCents: 0 } })).data!.recordChargeItem.id;
    const lines = [await line(ann), await line(bob)];
    await runAudited(kit.billing, t, PACKAGE, { i: { locationId: location, packageName: 'Pack', paymentMedium: 'CASH', grossCents: 1000 } });

    const page = await run(t, '{ revenueBreakdown(timezone: "UTC") { totalCount nodes { id patientId } } }');
    expect(page.data.revenueBreakdown.totalCount).toBe(3);
    const aggregates = await run(t, `{ revenueBreakdownSummary(timezone: "UTC") { count } revenueBreakdownGroups(timezone: "UTC", groupBy: LOCATION) { groupKey }
      revenueBreakdownGroupSummaries(timezone: "UTC", groupBy: PROVIDER) { count } }`);
    const byId = await run(t, QUERY, { q: { measures: ['revenue.netAmount'], dimensions: ['revenue.patientId'] } });
    expect(byId.data.executeAnalyticsQuery.data).toHaveLength(3); // Ann, Bob and the line of no patient
    const byName = await run(t, QUERY, { q: { measures: ['revenue.count'], dimensions: ['revenue.patient'], filters: [{ member: 'revenue.patient', operator: 'equals', values: ['Bob Baker'] }] } });
    const total = await run(t, QUERY, { q: { measures: ['revenue.netAmount'], dimensions: ['revenue.location'] } });
    const none = await run(t, '{ revenueBreakdown(timezone: "UTC", patientIds: ["00000000-0000-4000-8000-000000000000"]) { totalCount } }');
    expect(none.data.revenueBreakdown.totalCount).toBe(0);

    const rows = await records(t, [page, aggregates, byId, byName, total, none]);
    const read = (r: AuditedRun, type: string) => ({ action: `${type}.read`, resource_type: type, actor_kind: 'key', actor_id: AUDIT_KEY_ID, request_id: r.requestId });
    expect(rows).toMatchObject([
      { ...read(page, 'revenue_line'), resource_ids: expect.arrayContaining(lines) },
      { ...read(byId, 'patient'), resource_ids: expect.arrayContaining([ann, bob]) },
      { ...read(byName, 'patient'), resource_ids: [bob] },
    ]);
    expect(rows.map((row) => row.resource_ids.length)).toEqual([2, 2, 1]);
  });

  it('a refused change records nothing, and a change whose record is refused is undone with it', async () => {
    const t = await kit.tenant('Audit Analytics Refusals');
    const unknown = await runAudited(analytics, t, 'mutation { updateDashboard(id: "00000000-0000-4000-8000-000000000000", input: { name: "X" }) { id } }');
    const invalid = await runAudited(analytics, t, 'mutation { createDashboard(input: { name: "" }) { id } }');
    expect([unknown.errors, invalid.errors]).toEqual([expect.any(Array), expect.any(Array)]);
    const scope = TenantScope.ofStoredRow(t);
    const service = new DashboardService(scope.guard(analytics.orm.em.fork() as never), scope, refusedAudit(t));
    await expect(service.create({ name: 'Never' } as never)).rejects.toThrow(/actor_kind/);
    expect((await db.query('select count(*)::int as n from analytics.dashboards where tenant_id = $1', [t])).rows[0].n).toBe(0);
    expect(await auditRecords(db, t, analytics)).toEqual([]);
  });
});
