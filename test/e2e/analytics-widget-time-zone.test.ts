import { Client } from 'pg';
import { Migration20261228000100_widget_time_zones } from '../../subgraphs/analytics/migrations/Migration20261228000100_widget_time_zones';
import { baseUrl, createTestTenant, request, type HttpResult, type TestTenant } from '../utils/e2e';
import { createDemoTenant, createLocation, executeQuery, recordSales } from '../subgraphs/analytics/revenue-kit';

// Issue 34: one widget, one number. A widget runs in the zone its query stores, the tenant's
// unless it names one, so the dashboard, the composer's preview and REST count the same rows.
const NY = 'America/New_York';
const TZ_REASON = 'timezone must be an IANA time zone name, e.g. America/New_York';
// February in New York: the first sale is 22:30 on January 31 there (February 1 in UTC).
const FEBRUARY = { measures: ['revenue.count'], timeDimensions: [{ dimension: 'revenue.createdAt', dateRange: ['2026-02-01', '2026-02-28'] }] };

function send(tenant: TestTenant, method: string, path: string, body: unknown): Promise<HttpResult> {
  return request(`${baseUrl()}${path}`, { method, headers: { ...tenant.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function newWidget(tenant: TestTenant, query: Record<string, unknown>): Promise<HttpResult> {
  const board = await send(tenant, 'POST', '/analytics/dashboards', { name: 'Board' });
  return send(tenant, 'POST', '/analytics/widgets', { dashboardId: board.body.id, name: 'Sales this month', chartType: 'kpi', query });
}

describe(`a widget's time zone (${process.env.E2E_MODE} mode)`, () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTestTenant('New York Clinic');
    expect((await send(tenant, 'PUT', '/tenant/update', { timezone: NY })).status).toBe(200);
    const location = await createLocation(tenant);
    await recordSales(tenant, [
      { locationId: location, grossCents: 1000, at: '2026-02-01T03:30:00Z' },
      { locationId: location, grossCents: 2000, at: '2026-02-01T15:00:00Z' },
    ]);
  });

  it("a widget saved without a zone stores the tenant's, shows it, and its query counts in it", async () => {
    const created = await newWidget(tenant, FEBRUARY);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ timezone: NY, query: { ...FEBRUARY, timezone: NY } });
    const read = await tenant.get(`/analytics/widgets/${created.body.id}`);
    expect(read.body).toEqual(created.body);
    const gql = await tenant.graphql(`{ widget(id: "${created.body.id}") { timezone } }`);
    expect(gql.body.data.widget).toEqual({ timezone: NY });
    // What the dashboard runs is the stored query: one sale in New York's February (UTC would say two).
    const ran = await executeQuery(tenant, read.body.query);
    expect(ran.body.data).toEqual([{ 'revenue.count': 1 }]);
    expect((await executeQuery(tenant, { ...FEBRUARY, timezone: 'UTC' })).body.data).toEqual([{ 'revenue.count': 2 }]);
  });

  it('an explicit zone is validated and stored in its canonical spelling; an edit without one keeps it', async () => {
    const utc = await newWidget(tenant, { ...FEBRUARY, timezone: 'europe/london' });
    expect(utc.body).toMatchObject({ timezone: 'Europe/London', query: { timezone: 'Europe/London' } });
    const edited = await send(tenant, 'PUT', `/analytics/widgets/${utc.body.id}`, { query: { measures: ['revenue.count'] } });
    expect(edited.body).toMatchObject({ timezone: 'Europe/London', query: { measures: ['revenue.count'], timezone: 'Europe/London' } });
    const bad = await newWidget(tenant, { ...FEBRUARY, timezone: '+01:00' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([{ type: 'value_error', loc: ['body', 'query', 'timezone'], msg: `Value error, ${TZ_REASON}`, input: '+01:00', ctx: { error: TZ_REASON } }]);
  });

  it("the migration gives widgets stored without a zone their tenant's, and leaves explicit zones", async () => {
    const kept = await newWidget(tenant, { ...FEBRUARY, timezone: 'Asia/Tokyo' });
    const old = await newWidget(tenant, FEBRUARY);
    const db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    try {
      // As a widget saved before issue 34 was stored: no zone in its query.
      await db.query(`update analytics.widgets set query = query - 'timezone' where id = $1`, [old.body.id]);
      expect((await tenant.get(`/analytics/widgets/${old.body.id}`)).body.timezone).toBe('UTC');
      const migration = new Migration20261228000100_widget_time_zones({} as never, {} as never);
      await migration.up();
      for (const sql of migration.getQueries()) await db.query(sql as string);
    } finally {
      await db.end();
    }
    expect((await tenant.get(`/analytics/widgets/${old.body.id}`)).body).toMatchObject({ timezone: NY, query: { ...FEBRUARY, timezone: NY } });
    expect((await tenant.get(`/analytics/widgets/${kept.body.id}`)).body.timezone).toBe('Asia/Tokyo');
  });

  it("the demo seeder stores the tenant's zone (New York) on every widget (nine named none)", async () => {
    const demo = await createDemoTenant();
    const widgets = (await demo.get('/analytics/widgets?per_page=100')).body;
    expect(widgets).toHaveLength(10);
    for (const widget of widgets) expect([widget.name, widget.timezone, widget.query.timezone]).toEqual([widget.name, NY, NY]);
  });
});
