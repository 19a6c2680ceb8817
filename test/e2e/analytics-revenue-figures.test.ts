import type { TestTenant } from '../utils/e2e';
import { breakdown, createDemoTenant, executeQuery, sum } from '../subgraphs/analytics/revenue-kit';

const TZ = 'America/Los_Angeles';
const GROUP_BYS = ['location', 'provider', 'item_category', 'payment_medium', 'created_date'];

describe(`revenue figures agree on a demo tenant (${process.env.E2E_MODE} mode)`, () => {
  let tenant: TestTenant;
  let summary: Record<string, any>;
  beforeAll(async () => {
    tenant = await createDemoTenant();
    summary = (await breakdown(tenant, 'revenue-breakdown-summary', { timezone: TZ })).body;
  }, 60_000);

  it('the demo data has about two years of lines, and the summary is consistent in itself', () => {
    expect(summary.count).toBeGreaterThan(2000);
    expect(summary.grossAmount - summary.discountAmount).toBe(summary.netAmount);
    expect(summary.chargeItemCount + summary.soldPackageCount).toBe(summary.count);
    expect(summary.averageNetAmount).toBe(Math.round(summary.netAmount / summary.count));
    expect(new Date(summary.lastDate).getTime() - new Date(summary.firstDate).getTime()).toBeGreaterThan(700 * 86_400_000);
  });

  it.each(GROUP_BYS)('group_by=%s: groups and group summaries add up to the summary', async (groupBy) => {
    const groups = (await breakdown(tenant, 'revenue-breakdown-groups', { timezone: TZ, group_by: groupBy })).body;
    const summaries = (await breakdown(tenant, 'revenue-breakdown-group-summaries', { timezone: TZ, group_by: groupBy })).body;
    expect(sum(groups, 'totalCount')).toBe(summary.count);
    expect(sum(summaries, 'count')).toBe(summary.count);
    for (const field of ['grossAmount', 'discountAmount', 'netAmount']) expect(sum(summaries, field)).toBe(summary[field]);
    // Both endpoints list the same groups in the same order by default (the most recently active first).
    expect(summaries.map((s: any) => [s.groupKey, s.count])).toEqual(groups.map((g: any) => [g.groupKey, g.totalCount]));
    for (const s of summaries) expect(s.averageNetAmount).toBe(Math.round(s.netAmount / s.count));
  });

  it("each group's detail rows are exactly its count", async () => {
    for (const groupBy of ['location', 'payment_medium']) {
      const groups = (await breakdown(tenant, 'revenue-breakdown-groups', { timezone: TZ, group_by: groupBy })).body;
      for (const group of groups.slice(0, 3)) {
        const page = await breakdown(tenant, 'revenue-breakdown', { timezone: TZ, group_by: groupBy, group_key: group.groupKey, per_page: 1 });
        expect(page.body.total).toBe(group.totalCount);
      }
    }
  });

  it('the detail pages together hold exactly the summary rows (one location, 100 days)', async () => {
    const location = (await breakdown(tenant, 'revenue-breakdown-groups', { timezone: TZ, group_by: 'location' })).body[0].groupKey;
    const wide = { timezone: TZ, location_ids: [location], start_date: new Date(Date.parse(summary.lastDate) - 100 * 86_400_000).toISOString().slice(0, 10) };
    const expected = (await breakdown(tenant, 'revenue-breakdown-summary', wide)).body;
    expect(expected.count).toBeGreaterThan(100);
    const ids = new Set<string>();
    let net = 0;
    let previous = '';
    for (let page = 1; ; page++) {
      const res = await breakdown(tenant, 'revenue-breakdown', { ...wide, page, per_page: 100, sort_by: 'created_date', sort_direction: 'asc' });
      expect(res.status).toBe(200);
      for (const item of res.body.items) {
        ids.add(item.id);
        net += item.netAmount;
        expect(item.createdDate >= previous).toBe(true);
        previous = item.createdDate;
      }
      if (page >= res.body.pages) {
        expect(res.body.total).toBe(expected.count);
        break;
      }
    }
    expect(ids.size).toBe(expected.count);
    expect(net).toBe(expected.netAmount);
  });

  it('the query engine agrees with the breakdown', async () => {
    const total = await executeQuery(tenant, { measures: ['revenue.count', 'revenue.netAmount', 'revenue.grossAmount', 'revenue.discountAmount', 'revenue.averageNet'], timezone: TZ });
    expect(total.body.data).toEqual([{
      'revenue.count': summary.count, 'revenue.netAmount': summary.netAmount, 'revenue.grossAmount': summary.grossAmount,
      'revenue.discountAmount': summary.discountAmount, 'revenue.averageNet': summary.averageNetAmount,
    }]);
    const byMedium = await executeQuery(tenant, { measures: ['revenue.netAmount'], dimensions: ['revenue.paymentMedium'], timezone: TZ });
    const summaries = (await breakdown(tenant, 'revenue-breakdown-group-summaries', { timezone: TZ, group_by: 'payment_medium' })).body;
    expect(new Map(byMedium.body.data.map((r: any) => [r['revenue.paymentMedium'], r['revenue.netAmount']]))).toEqual(new Map(summaries.map((s: any) => [s.groupKey, s.netAmount])));
    const byDay = await executeQuery(tenant, { measures: ['revenue.count'], timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'day' }], timezone: TZ, limit: 10000 });
    const days = (await breakdown(tenant, 'revenue-breakdown-groups', { timezone: TZ, group_by: 'created_date' })).body;
    expect(new Map(byDay.body.data.map((r: any) => [r['revenue.createdAt.day'].slice(0, 10), r['revenue.count']]))).toEqual(new Map(days.map((d: any) => [d.groupKey, d.totalCount])));
  });

  it("every demo widget's query runs", async () => {
    const widgets = (await tenant.get('/analytics/widgets?per_page=100')).body;
    expect(widgets.length).toBeGreaterThan(4);
    for (const widget of widgets) {
      const res = await executeQuery(tenant, { query: widget.query });
      expect([widget.name, res.status]).toEqual([widget.name, 200]);
      expect(res.body.data.length).toBeGreaterThan(0);
    }
  });
});
