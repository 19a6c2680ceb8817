import { randomUUID } from 'node:crypto';
import { execute, parse } from 'graphql';
import { analyticsSubgraph } from '../../../subgraphs/analytics';
import { WidgetRepository } from '../../../subgraphs/analytics/repositories/widget.repository';
import { startSubgraph, type RunningSubgraph } from '../../../platform/subgraph-runtime';

describe('analytics subgraph (real PostgreSQL, demo data)', () => {
  let subgraph: RunningSubgraph;
  const a = randomUUID();
  const b = randomUUID();

  beforeAll(async () => {
    subgraph = await startSubgraph(analyticsSubgraph, process.env.DATABASE_URL!, { migrate: false, publicUrl: 'https://api.example.test/' });
    await subgraph.seedDemo(a);
  });
  afterAll(() => subgraph.close());

  const run = async (tenantId: string | null, query: string, variableValues?: Record<string, unknown>) => {
    const result = await execute({ schema: subgraph.schema, document: parse(query), variableValues, contextValue: subgraph.context({ tenantId, requestId: 'test' }) });
    return { data: result.data as any, errors: result.errors };
  };

  it('seeds three campaigns whose counts come from their opportunities', async () => {
    const { data, errors } = await run(a, '{ campaigns(sortBy: NAME, sortDirection: ASC) { totalCount nodes { name isActive opportunityCount convertedCount webhook { webhookKey webhookUrl redirectUrl } } } }');
    expect(errors).toBeUndefined();
    expect(data.campaigns.totalCount).toBe(3);
    expect(data.campaigns.nodes.map((c: any) => [c.name, c.isActive, c.opportunityCount, c.convertedCount])).toEqual([
      ['New patient welcome', true, 3, 1],
      ['Spring physio check-up', true, 6, 2],
      ['Winter flu clinic', false, 4, 2],
    ]);
    for (const { webhook } of data.campaigns.nodes) {
      expect(webhook.webhookKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(webhook.webhookUrl).toBe(`https://api.example.test/opportunity/leads/${webhook.webhookKey}`);
    }
  });

  it('seeds dashboards whose widgets hold Cube-shaped revenue queries, loaded in one batch', async () => {
    const batch = jest.spyOn(WidgetRepository.prototype, 'ofDashboards');
    const { data, errors } = await run(a, '{ dashboards(sortBy: NAME, sortDirection: ASC) { totalCount nodes { name widgets { name chartType query position { w h } } } } }');
    expect(errors).toBeUndefined();
    expect(data.dashboards.nodes.map((d: any) => [d.name, d.widgets.length])).toEqual([
      ['Discounts', 1],
      ['Providers', 2],
      ['Revenue overview', 7],
    ]);
    expect(batch).toHaveBeenCalledTimes(1);
    batch.mockRestore();
    const monthly = data.dashboards.nodes[2].widgets.find((w: any) => w.name === 'Net revenue by month');
    expect(monthly.query).toMatchObject({ measures: ['revenue.netAmount'], timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'month' }] });
  });

  it("another tenant sees none of it, and A's ids are NOT_FOUND for B", async () => {
    const ofB = await run(b, '{ dashboards { totalCount } widgets { totalCount } campaigns { totalCount } }');
    expect(ofB.data).toEqual({ dashboards: { totalCount: 0 }, widgets: { totalCount: 0 }, campaigns: { totalCount: 0 } });
    const ofA = await run(a, '{ dashboards(first: 1) { nodes { id } } widgets(first: 1) { nodes { id } } campaigns(first: 1) { nodes { id } } }');
    const ids = { d: ofA.data.dashboards.nodes[0].id, w: ofA.data.widgets.nodes[0].id, c: ofA.data.campaigns.nodes[0].id };
    for (const query of [`{ dashboard(id: "${ids.d}") { id } }`, `{ widget(id: "${ids.w}") { id } }`, `{ campaign(id: "${ids.c}") { id } }`, `mutation { deleteDashboard(id: "${ids.d}") }`]) {
      const result = await run(b, query);
      expect(result.errors?.[0].extensions?.code ?? (result.errors?.[0].originalError as any)?.code).toBe('NOT_FOUND');
    }
    expect((await run(a, `{ dashboard(id: "${ids.d}") { id } }`)).data.dashboard.id).toBe(ids.d);
  });

  it('takes a lead with no tenant in the context and counts it for the campaign owner', async () => {
    const before = await run(a, '{ campaigns(sortBy: NAME, sortDirection: ASC, first: 1) { nodes { id opportunityCount webhook { webhookKey } } } }');
    const [campaign] = before.data.campaigns.nodes;
    const lead = await run(null, 'mutation($k: String!) { submitCampaignLead(webhookKey: $k, input: { email: "lead@example.com" }) { opportunityId redirectUrl } }', { k: campaign.webhook.webhookKey });
    expect(lead.errors).toBeUndefined();
    expect(lead.data.submitCampaignLead.redirectUrl).toBe('https://clinic.example.com/thank-you');
    const after = await run(a, `{ campaign(id: "${campaign.id}") { opportunityCount convertedCount } }`);
    expect(after.data.campaign).toEqual({ opportunityCount: campaign.opportunityCount + 1, convertedCount: 1 });
  });

  it("answers whether a key takes leads with no tenant in the context: true, or submitCampaignLead's NOT_FOUND and CONFLICT", async () => {
    const { data } = await run(a, '{ campaigns(sortBy: NAME, sortDirection: ASC) { nodes { isActive webhook { webhookKey } } } }');
    const code = (result: { errors?: readonly { extensions?: Record<string, unknown>; originalError?: unknown }[] }) => result.errors?.[0].extensions?.code ?? (result.errors?.[0].originalError as any)?.code;
    const ask = (key: string) => run(null, 'query($k: String!) { campaignAcceptsLeads(webhookKey: $k) }', { k: key });
    const [active, , inactive] = data.campaigns.nodes;
    expect([active.isActive, inactive.isActive]).toEqual([true, false]);
    expect((await ask(active.webhook.webhookKey)).data).toEqual({ campaignAcceptsLeads: true });
    const closed = await ask(inactive.webhook.webhookKey);
    expect([code(closed), closed.errors?.[0].message]).toEqual(['CONFLICT', 'Campaign is not accepting leads']);
    for (const key of ['A'.repeat(43), 'short']) {
      const unknown = await ask(key);
      expect([code(unknown), unknown.errors?.[0].message]).toEqual(['NOT_FOUND', 'Campaign not found']);
    }
  });

  it('refuses tenant data without a tenant in the context', async () => {
    for (const query of ['{ dashboards { totalCount } }', '{ widgets { totalCount } }', '{ campaigns { totalCount } }']) {
      expect((await run(null, query)).errors?.[0].message).toBe('A tenant is required');
    }
  });
});
