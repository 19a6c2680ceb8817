import { Client } from 'pg';
import { createTestTenant, type TestTenant } from '../utils/e2e';
import { breakdown, createLocation, executeQuery, gql } from '../subgraphs/analytics/revenue-kit';

const NY = 'America/New_York';
const RECORD = 'mutation($i: RecordChargeItemInput!) { recordChargeItem(input: $i) { id } }';

/**
 * Rollups are kept in the transaction that writes the line (issue 21, part 3): a sale recorded
 * through the API is in the very next request's figures, which read a rollup (the per-hour
 * tables of billing), not the lines.
 */
describe(`a line written is seen by the next request (${process.env.E2E_MODE} mode)`, () => {
  let tenant: TestTenant;
  let location: string;
  let db: Client;
  beforeAll(async () => {
    tenant = await createTestTenant('Rollup Clinic');
    location = await createLocation(tenant);
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
  });
  afterAll(() => db.end());

  const sale = (grossCents: number, paymentMedium = 'CARD') =>
    gql(tenant, RECORD, { i: { locationId: location, itemCategory: 'Massage', itemType: 'SERVICE', itemName: '60-minute massage', paymentMedium, grossCents } });
  const summary = async () => (await breakdown(tenant, 'revenue-breakdown-summary', { timezone: NY })).body;

  it('each sale counts at once in the summary, the groups, the page total and execute-query', async () => {
    for (let i = 1; i <= 3; i++) {
      await sale(1000 * i, i === 3 ? 'CASH' : 'CARD');
      expect(await summary()).toMatchObject({ count: i, netAmount: (1000 * i * (i + 1)) / 2, chargeItemCount: i });
      const groups = await breakdown(tenant, 'revenue-breakdown-group-summaries', { timezone: NY, group_by: 'payment_medium' });
      expect(groups.body.reduce((n: number, g: any) => n + g.count, 0)).toBe(i);
      const page = await breakdown(tenant, 'revenue-breakdown', { timezone: NY, per_page: 1 });
      expect(page.body.total).toBe(i);
      const query = await executeQuery(tenant, { measures: ['revenue.count', 'revenue.netAmount'], timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'day' }], timezone: NY });
      expect(query.body.data.reduce((n: number, row: any) => n + row['revenue.count'], 0)).toBe(i);
    }
    // The figures came from billing's rollups, which hold the sales already.
    const { rows } = await db.query('select sum(line_count)::int as lines, sum(net_cents)::int as net from billing.revenue_hourly_total where tenant_id = $1', [tenant.tenantId]);
    expect(rows[0]).toEqual({ lines: 3, net: 6000 });
  });

  it('a line moved to another day (an update) or removed moves or leaves the figures at once', async () => {
    const { id } = (await sale(500)).recordChargeItem;
    await db.query(`update billing.charge_items set created_at = '2025-07-04T15:00:00Z' where id = $1 and tenant_id = $2`, [id, tenant.tenantId]);
    const day = await breakdown(tenant, 'revenue-breakdown-groups', { timezone: NY, group_by: 'created_date', start_date: '2025-07-04', end_date: '2025-07-04' });
    expect(day.body).toEqual([{ groupKey: '2025-07-04', groupLabel: '2025-07-04', totalCount: 1 }]);
    await db.query('delete from billing.charge_items where id = $1 and tenant_id = $2', [id, tenant.tenantId]);
    expect((await breakdown(tenant, 'revenue-breakdown-groups', { timezone: NY, group_by: 'created_date', start_date: '2025-07-04', end_date: '2025-07-04' })).body).toEqual([]);
    expect(await summary()).toMatchObject({ count: 3, netAmount: 6000 });
  });
});
