import { createTestTenant, type TestTenant } from '../utils/e2e';
import { breakdown, createLocation, executeQuery, recordSales } from '../subgraphs/analytics/revenue-kit';

// America/New_York: clocks go forward at 2025-03-09 02:00 EST (a 23-hour day) and back at
// 2025-11-02 02:00 EDT (a 25-hour day). Each instant below sits where a fixed UTC offset would
// put it on the wrong calendar day.
const SALES = [
  { at: '2025-03-09T04:30:00Z', day: '2025-03-08' }, // 23:30 EST
  { at: '2025-03-10T03:30:00Z', day: '2025-03-09' }, // 23:30 EDT, the short day
  { at: '2025-03-10T04:30:00Z', day: '2025-03-10' }, // 00:30 EDT (a fixed -05:00 would say the 9th)
  { at: '2025-11-02T03:30:00Z', day: '2025-11-01' }, // 23:30 EDT
  { at: '2025-11-02T04:30:00Z', day: '2025-11-02' }, // 00:30 EDT, the long day begins
  { at: '2025-11-03T04:30:00Z', day: '2025-11-02' }, // 23:30 EST, still the long day (a fixed -04:00 would say the 3rd)
  { at: '2025-11-03T05:30:00Z', day: '2025-11-03' }, // 00:30 EST
];
const NY = 'America/New_York';

describe(`calendar days across DST changes (${process.env.E2E_MODE} mode)`, () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTestTenant('DST Clinic');
    const location = await createLocation(tenant);
    await recordSales(tenant, SALES.map((sale, i) => ({ locationId: location, grossCents: 1000 * (i + 1), at: sale.at })));
  });

  const expectedDays = () => {
    const counts = new Map<string, number>();
    for (const sale of SALES) counts.set(sale.day, (counts.get(sale.day) ?? 0) + 1);
    return counts;
  };

  it('created_date groups by the calendar day in the requested timezone', async () => {
    const groups = await breakdown(tenant, 'revenue-breakdown-groups', { timezone: NY, group_by: 'created_date' });
    expect(groups.status).toBe(200);
    expect(new Map(groups.body.map((g: any) => [g.groupKey, g.totalCount]))).toEqual(expectedDays());
    expect(groups.body.map((g: any) => g.groupKey)).toEqual([...expectedDays().keys()].reverse());
    const utc = await breakdown(tenant, 'revenue-breakdown-groups', { timezone: 'UTC', group_by: 'created_date' });
    expect(new Map(utc.body.map((g: any) => [g.groupKey, g.totalCount]))).toEqual(new Map([['2025-03-09', 1], ['2025-03-10', 2], ['2025-11-02', 2], ['2025-11-03', 2]]));
  });

  it('a day filter covers the 25-hour and the 23-hour day whole, on every endpoint', async () => {
    const long = await breakdown(tenant, 'revenue-breakdown', { timezone: NY, created_date: '2025-11-02', sort_direction: 'asc' });
    expect(long.body.items.map((i: any) => [i.createdDate, i.localDate])).toEqual([
      ['2025-11-02T04:30:00.000Z', '2025-11-02'],
      ['2025-11-03T04:30:00.000Z', '2025-11-02'],
    ]);
    const keyed = await breakdown(tenant, 'revenue-breakdown', { timezone: NY, group_by: 'created_date', group_key: '2025-03-09' });
    expect(keyed.body.items.map((i: any) => i.createdDate)).toEqual(['2025-03-10T03:30:00.000Z']);
    const range = await breakdown(tenant, 'revenue-breakdown-summary', { timezone: NY, start_date: '2025-11-02', end_date: '2025-11-02' });
    expect(range.body).toMatchObject({ count: 2, netAmount: 5000 + 6000 });
    const summaries = await breakdown(tenant, 'revenue-breakdown-group-summaries', { timezone: NY, group_by: 'created_date', sort_by: 'group_label', sort_direction: 'asc' });
    expect(summaries.body.map((s: any) => [s.groupKey, s.count, s.netAmount])).toEqual([
      ['2025-03-08', 1, 1000], ['2025-03-09', 1, 2000], ['2025-03-10', 1, 3000], ['2025-11-01', 1, 4000], ['2025-11-02', 2, 11000], ['2025-11-03', 1, 7000],
    ]);
  });

  it("the query engine's day buckets and date ranges follow the query's timezone", async () => {
    const res = await executeQuery(tenant, {
      measures: ['revenue.count', 'revenue.netAmount'],
      timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'day', dateRange: ['2025-11-01', '2025-11-03'] }],
      timezone: NY,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { 'revenue.createdAt.day': '2025-11-01T00:00:00.000', 'revenue.createdAt': '2025-11-01T00:00:00.000', 'revenue.count': 1, 'revenue.netAmount': 4000 },
      { 'revenue.createdAt.day': '2025-11-02T00:00:00.000', 'revenue.createdAt': '2025-11-02T00:00:00.000', 'revenue.count': 2, 'revenue.netAmount': 11000 },
      { 'revenue.createdAt.day': '2025-11-03T00:00:00.000', 'revenue.createdAt': '2025-11-03T00:00:00.000', 'revenue.count': 1, 'revenue.netAmount': 7000 },
    ]);
    const spring = await executeQuery(tenant, {
      measures: ['revenue.count'],
      timeDimensions: [{ dimension: 'revenue.createdAt', dateRange: '2025-03-09' }],
      timezone: NY,
    });
    expect(spring.body.data).toEqual([{ 'revenue.count': 1 }]);
    const month = await executeQuery(tenant, { measures: ['revenue.count'], timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'month' }], timezone: 'Asia/Tokyo' });
    expect(month.body.data.map((r: any) => [r['revenue.createdAt.month'], r['revenue.count']])).toEqual([['2025-03-01T00:00:00.000', 3], ['2025-11-01T00:00:00.000', 4]]);
  });
});
