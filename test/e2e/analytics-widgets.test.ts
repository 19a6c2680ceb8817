import { baseUrl, createTestTenant, request, type HttpResult, type TestTenant } from '../utils/e2e';

/** Sends a JSON request as the tenant. */
function send(tenant: TestTenant, method: string, path: string, body?: unknown): Promise<HttpResult> {
  return request(`${baseUrl()}${path}`, {
    method,
    headers: body === undefined ? tenant.headers : { ...tenant.headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const QUERY = { measures: ['revenue.netAmount'], timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'month' }] };

async function setUp(tenant: TestTenant, dashboard: Record<string, unknown> = { name: 'Board' }) {
  const res = await send(tenant, 'POST', '/analytics/dashboards', dashboard);
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function createWidget(tenant: TestTenant, body: Record<string, unknown>) {
  const res = await send(tenant, 'POST', '/analytics/widgets', body);
  expect(res.status).toBe(201);
  return res.body;
}

describe(`analytics widgets (${process.env.E2E_MODE} mode)`, () => {
  it('POST creates a widget: 201, default position, and GET reads it back', async () => {
    const tenant = await createTestTenant();
    const dashboardId = await setUp(tenant);
    const res = await send(tenant, 'POST', '/analytics/widgets', { dashboardId, name: 'Revenue by month', chartType: 'line', query: QUERY });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      dashboardId,
      name: 'Revenue by month',
      chartType: 'line',
      // Issue 34: stored with the tenant's zone (a new test tenant's is UTC).
      query: { ...QUERY, timezone: 'UTC' },
      timezone: 'UTC',
      position: { x: 0, y: 0, w: 6, h: 4 },
      isArchived: false,
      createdDate: expect.any(String),
      updatedDate: expect.any(String),
    });
    const read = await tenant.get(`/analytics/widgets/${res.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it('POST validation: chart type, query shape, position ranges and a missing field, with exact bodies', async () => {
    const tenant = await createTestTenant();
    const dashboardId = await setUp(tenant);
    const chart = await send(tenant, 'POST', '/analytics/widgets', { dashboardId, name: 'W', chartType: 'donut', query: {} });
    expect(chart.status).toBe(422);
    expect(chart.body).toEqual({
      detail: [
        {
          type: 'enum',
          loc: ['body', 'chartType'],
          msg: "Input should be 'line', 'bar', 'area', 'pie', 'table' or 'kpi'",
          input: 'donut',
          ctx: { expected: "'line', 'bar', 'area', 'pie', 'table' or 'kpi'" },
        },
      ],
    });
    const shape = await send(tenant, 'POST', '/analytics/widgets', { dashboardId, name: 'W', chartType: 'bar', query: { measures: 'revenue.netAmount', select: '*' }, position: { x: -1, y: 0, w: 0, h: 2 } });
    expect(shape.body).toEqual({
      detail: [
        { type: 'extra_forbidden', loc: ['body', 'query', 'select'], msg: 'Extra inputs are not permitted', input: '*' },
        { type: 'list_type', loc: ['body', 'query', 'measures'], msg: 'Input should be a valid list', input: 'revenue.netAmount' },
        { type: 'greater_than_equal', loc: ['body', 'position', 'x'], msg: 'Input should be greater than or equal to 0', input: -1, ctx: { ge: 0 } },
        { type: 'greater_than_equal', loc: ['body', 'position', 'w'], msg: 'Input should be greater than or equal to 1', input: 0, ctx: { ge: 1 } },
      ],
    });
    const notObject = await send(tenant, 'POST', '/analytics/widgets', { dashboardId, name: 'W', chartType: 'bar', query: ['revenue.netAmount'] });
    expect(notObject.body).toEqual({ detail: [{ type: 'dict_type', loc: ['body', 'query'], msg: 'Input should be a valid dictionary', input: ['revenue.netAmount'] }] });
    const missing = await send(tenant, 'POST', '/analytics/widgets', { dashboardId, chartType: 'bar', query: {} });
    expect(missing.body).toEqual({ detail: [{ type: 'missing', loc: ['body', 'name'], msg: 'Field required', input: { dashboardId, chartType: 'bar', query: {} } }] });
    expect(await tenant.get('/analytics/widgets')).toMatchObject({ status: 200, body: [] });
  });

  it('POST on an unknown dashboard is 404, whatever the id looks like', async () => {
    const tenant = await createTestTenant();
    for (const dashboardId of ['00000000-0000-0000-0000-000000000000', 'dash-1']) {
      const res = await send(tenant, 'POST', '/analytics/widgets', { dashboardId, name: 'W', chartType: 'kpi', query: {} });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Dashboard not found' });
    }
  });

  it('GET lists a plain JSON array, paged, filtered by dashboard, chart type, archive flag and location', async () => {
    const tenant = await createTestTenant();
    const north = await setUp(tenant, { name: 'North', locationId: 'north' });
    const south = await setUp(tenant, { name: 'South', locationId: 'south' });
    await createWidget(tenant, { dashboardId: north, name: 'A', chartType: 'line', query: {} });
    await createWidget(tenant, { dashboardId: north, name: 'B', chartType: 'bar', query: {}, isArchived: true });
    await createWidget(tenant, { dashboardId: south, name: 'C', chartType: 'line', query: {} });
    const names = async (query: string) => {
      const res = await tenant.get(`/analytics/widgets?sort_by=name&sort_direction=asc&${query}`);
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      return res.body.map((w: any) => w.name);
    };
    expect(await names('')).toEqual(['A', 'B', 'C']);
    expect(await names('per_page=2')).toEqual(['A', 'B']);
    expect(await names('per_page=2&page=2')).toEqual(['C']);
    expect(await names(`dashboard_id=${north}`)).toEqual(['A', 'B']);
    expect(await names('chart_type=line')).toEqual(['A', 'C']);
    expect(await names('is_archived=true')).toEqual(['B']);
    expect(await names('is_archived=0')).toEqual(['A', 'C']);
    expect(await names('location_id=south')).toEqual(['C']);
    expect(await names(`location_id=south&dashboard_id=${north}`)).toEqual([]);
    expect(await names('location_id=nowhere')).toEqual([]);
    expect(await names('dashboard_id=not-a-uuid')).toEqual([]);
    // Ties on the sort field fall back to the id, so only the chart types' order is certain; unknown parameters are ignored.
    const byChart = await tenant.get('/analytics/widgets?sort_by=chartType&sort_direction=desc&colour=red');
    expect(byChart.body.map((w: any) => w.chartType)).toEqual(['line', 'line', 'bar']);
  });

  it('GET list parameters: exact 422 for a bad boolean, chart type, sort_by and per_page', async () => {
    const tenant = await createTestTenant();
    const res = await tenant.get('/analytics/widgets?is_archived=maybe&sort_by=size&per_page=500');
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toBe(
      JSON.stringify({
        detail: [
          { type: 'enum', loc: ['query', 'sort_by'], msg: "Input should be 'name', 'chartType', 'createdDate' or 'updatedDate'", input: 'size', ctx: { expected: "'name', 'chartType', 'createdDate' or 'updatedDate'" } },
          { type: 'bool_parsing', loc: ['query', 'is_archived'], msg: 'Input should be a valid boolean, unable to interpret input', input: 'maybe' },
        ],
      }),
    );
    const perPage = await tenant.get('/analytics/widgets?per_page=500');
    expect(perPage.body).toEqual({ detail: [{ type: 'less_than_equal', loc: ['query', 'per_page'], msg: 'Input should be less than or equal to 100', input: 500, ctx: { le: 100 } }] });
    const chart = await tenant.get('/analytics/widgets?chart_type=donut');
    expect(chart.body.detail[0]).toMatchObject({ type: 'enum', loc: ['query', 'chart_type'], input: 'donut' });
  });

  it('PUT changes only the fields sent: the query is replaced, not merged; a dashboardId moves it', async () => {
    const tenant = await createTestTenant();
    const first = await setUp(tenant);
    const second = await setUp(tenant, { name: 'Second' });
    const widget = await createWidget(tenant, { dashboardId: first, name: 'W', chartType: 'line', query: QUERY, position: { x: 1, y: 2, w: 3, h: 4 } });
    const archived = await send(tenant, 'PUT', `/analytics/widgets/${widget.id}`, { isArchived: true, query: { measures: ['revenue.count'] } });
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ name: 'W', chartType: 'line', isArchived: true, query: { measures: ['revenue.count'] }, position: { x: 1, y: 2, w: 3, h: 4 } });
    const moved = await send(tenant, 'PUT', `/analytics/widgets/${widget.id}`, { dashboardId: second, position: { x: 0, y: 0, w: 12, h: 1 } });
    expect(moved.body).toMatchObject({ dashboardId: second, position: { x: 0, y: 0, w: 12, h: 1 }, isArchived: true });
    const nowhere = await send(tenant, 'PUT', `/analytics/widgets/${widget.id}`, { dashboardId: '00000000-0000-0000-0000-000000000000' });
    expect(nowhere.status).toBe(404);
    expect(nowhere.body).toEqual({ detail: 'Dashboard not found' });
    const nulls = await send(tenant, 'PUT', `/analytics/widgets/${widget.id}`, { chartType: null, query: null });
    expect(nulls.status).toBe(422);
    expect(nulls.body.detail.map((d: any) => [d.type, d.loc])).toEqual([
      ['enum', ['body', 'chartType']],
      ['dict_type', ['body', 'query']],
    ]);
    expect((await tenant.get(`/analytics/widgets/${widget.id}`)).body.dashboardId).toBe(second);
    const unknown = await send(tenant, 'PUT', '/analytics/widgets/00000000-0000-0000-0000-000000000000', { name: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Widget not found' });
  });

  it('DELETE answers 204 with no body, then 404', async () => {
    const tenant = await createTestTenant();
    const widget = await createWidget(tenant, { dashboardId: await setUp(tenant), name: 'W', chartType: 'pie', query: {} });
    const deleted = await send(tenant, 'DELETE', `/analytics/widgets/${widget.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await send(tenant, 'DELETE', `/analytics/widgets/${widget.id}`)).status).toBe(404);
    expect((await tenant.get(`/analytics/widgets/${widget.id}`)).body).toEqual({ detail: 'Widget not found' });
    expect((await tenant.get('/analytics/widgets/not-a-uuid')).status).toBe(404);
  });

  it("another tenant's widget behaves exactly like an unknown one", async () => {
    const [a, b] = await Promise.all([createTestTenant('A'), createTestTenant('B')]);
    const widget = await createWidget(a, { dashboardId: await setUp(a), name: 'Private', chartType: 'kpi', query: {} });
    const bDashboard = await setUp(b);
    expect(await b.get(`/analytics/widgets/${widget.id}`)).toMatchObject({ status: 404, body: { detail: 'Widget not found' } });
    expect((await send(b, 'PUT', `/analytics/widgets/${widget.id}`, { name: 'Mine now' })).status).toBe(404);
    expect((await send(b, 'DELETE', `/analytics/widgets/${widget.id}`)).status).toBe(404);
    expect((await b.get('/analytics/widgets')).body).toEqual([]);
    expect((await b.get(`/analytics/widgets?dashboard_id=${widget.dashboardId}`)).body).toEqual([]);
    // Nor can A move its widget onto B's dashboard.
    expect((await send(a, 'PUT', `/analytics/widgets/${widget.id}`, { dashboardId: bDashboard })).status).toBe(404);
    expect((await a.get(`/analytics/widgets/${widget.id}`)).body).toMatchObject({ name: 'Private', dashboardId: widget.dashboardId });
  });

  it('GraphQL widgets answers the connection the REST list unwraps', async () => {
    const tenant = await createTestTenant();
    const dashboardId = await setUp(tenant);
    await createWidget(tenant, { dashboardId, name: 'W1', chartType: 'table', query: {} });
    await createWidget(tenant, { dashboardId, name: 'W2', chartType: 'table', query: {} });
    const res = await tenant.graphql('{ widgets(first: 1, sortBy: NAME, sortDirection: ASC) { totalCount pageInfo { hasNextPage hasPreviousPage } nodes { name } } }');
    expect(res.body.data.widgets).toEqual({ totalCount: 2, pageInfo: { hasNextPage: true, hasPreviousPage: false }, nodes: [{ name: 'W1' }] });
  });
});
