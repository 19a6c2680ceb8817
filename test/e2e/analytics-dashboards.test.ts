import { baseUrl, createTestTenant, request, type HttpResult, type TestTenant } from '../utils/e2e';

/** Sends a JSON request as the tenant. */
function send(tenant: TestTenant, method: string, path: string, body?: unknown): Promise<HttpResult> {
  return request(`${baseUrl()}${path}`, {
    method,
    headers: body === undefined ? tenant.headers : { ...tenant.headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const createDashboard = async (tenant: TestTenant, body: Record<string, unknown>) => {
  const res = await send(tenant, 'POST', '/analytics/dashboards', body);
  expect(res.status).toBe(201);
  return res.body;
};

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe(`analytics dashboards (${process.env.E2E_MODE} mode)`, () => {
  it('POST creates a dashboard: 201 with the whole record', async () => {
    const tenant = await createTestTenant();
    const res = await send(tenant, 'POST', '/analytics/dashboards', { name: '  Revenue  ', description: 'Monthly', locationId: 'loc-1', layout: [{ i: 'a', x: 0 }] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Revenue',
      description: 'Monthly',
      locationId: 'loc-1',
      layout: [{ i: 'a', x: 0 }],
      createdDate: expect.stringMatching(ISO),
      updatedDate: expect.stringMatching(ISO),
    });
    expect((await createDashboard(tenant, { name: 'Bare' })).layout).toEqual({});
  });

  it('POST validation: missing, empty, wrong types and unknown fields are 422 with exact bodies', async () => {
    const tenant = await createTestTenant();
    const missing = await send(tenant, 'POST', '/analytics/dashboards', {});
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ detail: [{ type: 'missing', loc: ['body', 'name'], msg: 'Field required', input: {} }] });
    const empty = await send(tenant, 'POST', '/analytics/dashboards', { name: '  ', layout: 3 });
    expect(empty.body).toEqual({
      detail: [
        { type: 'value_error', loc: ['body', 'name'], msg: 'Value error, name must not be empty', input: '  ', ctx: { error: 'name must not be empty' } },
        { type: 'value_error', loc: ['body', 'layout'], msg: 'Value error, layout must be a JSON object or array', input: 3, ctx: { error: 'layout must be a JSON object or array' } },
      ],
    });
    const extra = await send(tenant, 'POST', '/analytics/dashboards', { name: 'x', owner: 'me' });
    expect(extra.body).toEqual({ detail: [{ type: 'extra_forbidden', loc: ['body', 'owner'], msg: 'Extra inputs are not permitted', input: 'me' }] });
    const notObject = await send(tenant, 'POST', '/analytics/dashboards', [1]);
    expect(notObject.body).toEqual({ detail: [{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: [1] }] });
    const noBody = await send(tenant, 'POST', '/analytics/dashboards');
    expect(noBody.body).toEqual({ detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] });
    const list = await tenant.get('/analytics/dashboards');
    expect(list.body.total).toBe(0); // nothing half-written
  });

  it('GET pages with the envelope {items, total, page, perPage, pages}', async () => {
    const tenant = await createTestTenant();
    for (const name of ['D1', 'D2', 'D3', 'D4', 'D5']) await createDashboard(tenant, { name });
    const first = await tenant.get('/analytics/dashboards?per_page=2&sort_by=name&sort_direction=asc');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 5, page: 1, perPage: 2, pages: 3 });
    expect(first.body.items.map((d: any) => d.name)).toEqual(['D1', 'D2']);
    const last = await tenant.get('/analytics/dashboards?per_page=2&page=3&sort_by=name&sort_direction=asc');
    expect(last.body).toMatchObject({ total: 5, page: 3, perPage: 2, pages: 3 });
    expect(last.body.items.map((d: any) => d.name)).toEqual(['D5']);
    const beyond = await tenant.get('/analytics/dashboards?per_page=2&page=9');
    expect(beyond.body).toEqual({ items: [], total: 5, page: 9, perPage: 2, pages: 3 });
    const defaults = await tenant.get('/analytics/dashboards');
    expect(defaults.body).toMatchObject({ total: 5, page: 1, perPage: 20, pages: 1 });
    // Default order: newest first.
    expect(defaults.body.items.map((d: any) => d.name)).toEqual(['D5', 'D4', 'D3', 'D2', 'D1']);
    const desc = await tenant.get('/analytics/dashboards?sort_by=name&sort_direction=desc&per_page=1');
    expect(desc.body.items[0].name).toBe('D5');
  });

  it('GET list parameters: exact 422 for per_page over 100, unknown sort_by, bad sort_direction, page 0', async () => {
    const tenant = await createTestTenant();
    const perPage = await tenant.get('/analytics/dashboards?per_page=101');
    expect(perPage.status).toBe(422);
    expect(perPage.body).toEqual({ detail: [{ type: 'less_than_equal', loc: ['query', 'per_page'], msg: 'Input should be less than or equal to 100', input: 101, ctx: { le: 100 } }] });
    const sort = await tenant.get('/analytics/dashboards?sort_by=owner&sort_direction=up');
    expect(JSON.stringify(sort.body)).toBe(
      JSON.stringify({
        detail: [
          { type: 'enum', loc: ['query', 'sort_by'], msg: "Input should be 'name', 'createdDate' or 'updatedDate'", input: 'owner', ctx: { expected: "'name', 'createdDate' or 'updatedDate'" } },
          { type: 'enum', loc: ['query', 'sort_direction'], msg: "Input should be 'asc' or 'desc'", input: 'up', ctx: { expected: "'asc' or 'desc'" } },
        ],
      }),
    );
    const page = await tenant.get('/analytics/dashboards?page=0');
    expect(page.body).toEqual({ detail: [{ type: 'greater_than_equal', loc: ['query', 'page'], msg: 'Input should be greater than or equal to 1', input: 0, ctx: { ge: 1 } }] });
    const notInt = await tenant.get('/analytics/dashboards?per_page=ten');
    expect(notInt.body.detail[0]).toMatchObject({ type: 'int_parsing', loc: ['query', 'per_page'] });
  });

  it('GET filters by name (case-insensitive contains, wildcards literal) and location_id', async () => {
    const tenant = await createTestTenant();
    await createDashboard(tenant, { name: 'Revenue North', locationId: 'north' });
    await createDashboard(tenant, { name: 'revenue south', locationId: 'south' });
    await createDashboard(tenant, { name: '100% growth_plan' });
    await createDashboard(tenant, { name: '1000 growthXplan' });
    const names = async (query: string) => (await tenant.get(`/analytics/dashboards?sort_by=name&sort_direction=asc&${query}`)).body.items.map((d: any) => d.name);
    expect(await names('name=REVENUE')).toEqual(['Revenue North', 'revenue south']);
    expect(await names(`name=${encodeURIComponent('0%')}`)).toEqual(['100% growth_plan']);
    expect(await names('name=h_p')).toEqual(['100% growth_plan']);
    expect(await names('location_id=south')).toEqual(['revenue south']);
    expect(await names('location_id=south&name=north')).toEqual([]);
  });

  it('PUT changes only the fields sent; 404 for unknown ids of any shape; 422 before 404', async () => {
    const tenant = await createTestTenant();
    const dashboard = await createDashboard(tenant, { name: 'Ops', description: 'Daily', layout: { cols: 12 } });
    const res = await send(tenant, 'PUT', `/analytics/dashboards/${dashboard.id}`, { description: null, layout: { cols: 6 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: dashboard.id, name: 'Ops', description: null, layout: { cols: 6 }, createdDate: dashboard.createdDate });
    expect(res.body.updatedDate >= dashboard.updatedDate).toBe(true);
    const empty = await send(tenant, 'PUT', `/analytics/dashboards/${dashboard.id}`);
    expect(empty.status).toBe(200);
    expect(empty.body.name).toBe('Ops');
    for (const id of ['00000000-0000-0000-0000-000000000000', 'not-a-uuid', "1' or '1'='1"]) {
      const missing = await send(tenant, 'PUT', `/analytics/dashboards/${encodeURIComponent(id)}`, { name: 'x' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ detail: 'Dashboard not found' });
    }
    const nullName = await send(tenant, 'PUT', '/analytics/dashboards/not-a-uuid', { name: null });
    expect(nullName.status).toBe(422);
    expect(nullName.body).toEqual({ detail: [{ type: 'string_type', loc: ['body', 'name'], msg: 'Input should be a valid string', input: null }] });
  });

  it('DELETE answers 204 with no body, takes the widgets along, then 404', async () => {
    const tenant = await createTestTenant();
    const dashboard = await createDashboard(tenant, { name: 'Doomed' });
    const widget = await send(tenant, 'POST', '/analytics/widgets', { dashboardId: dashboard.id, name: 'W', chartType: 'kpi', query: { measures: ['revenue.count'] } });
    expect(widget.status).toBe(201);
    const deleted = await send(tenant, 'DELETE', `/analytics/dashboards/${dashboard.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await tenant.get(`/analytics/widgets/${widget.body.id}`)).status).toBe(404);
    expect((await tenant.get(`/analytics/widgets?dashboard_id=${dashboard.id}`)).body).toEqual([]);
    const again = await send(tenant, 'DELETE', `/analytics/dashboards/${dashboard.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: 'Dashboard not found' });
    expect((await send(tenant, 'DELETE', '/analytics/dashboards/nope')).status).toBe(404);
  });

  it("another tenant's dashboard behaves exactly like an unknown one", async () => {
    const [a, b] = await Promise.all([createTestTenant('A'), createTestTenant('B')]);
    const mine = await createDashboard(a, { name: 'Private' });
    expect((await b.get('/analytics/dashboards')).body.total).toBe(0);
    const put = await send(b, 'PUT', `/analytics/dashboards/${mine.id}`, { name: 'Hijacked' });
    expect(put.status).toBe(404);
    expect(put.body).toEqual({ detail: 'Dashboard not found' });
    expect((await send(b, 'DELETE', `/analytics/dashboards/${mine.id}`)).status).toBe(404);
    const widget = await send(b, 'POST', '/analytics/widgets', { dashboardId: mine.id, name: 'W', chartType: 'kpi', query: {} });
    expect(widget.status).toBe(404);
    expect(widget.body).toEqual({ detail: 'Dashboard not found' });
    const gql = await b.graphql(`{ dashboard(id: "${mine.id}") { id } }`);
    expect(gql.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const still = (await a.get('/analytics/dashboards')).body.items[0];
    expect(still.name).toBe('Private');
  });

  it('GraphQL: dashboard(id) and dashboards carry their widgets', async () => {
    const tenant = await createTestTenant();
    const one = await createDashboard(tenant, { name: 'One' });
    const two = await createDashboard(tenant, { name: 'Two' });
    for (const [dashboard, name] of [[one, 'a'], [one, 'b'], [two, 'c']] as const) {
      expect((await send(tenant, 'POST', '/analytics/widgets', { dashboardId: dashboard.id, name, chartType: 'bar', query: {} })).status).toBe(201);
    }
    const res = await tenant.graphql(`{
      dashboard(id: "${one.id}") { name widgets { name } }
      dashboards(sortBy: NAME, sortDirection: ASC) { totalCount nodes { name createdAt widgets { name dashboardId } } }
    }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.dashboard).toEqual({ name: 'One', widgets: [{ name: 'a' }, { name: 'b' }] });
    expect(res.body.data.dashboards.nodes.map((d: any) => [d.name, d.widgets.map((w: any) => w.name)])).toEqual([
      ['One', ['a', 'b']],
      ['Two', ['c']],
    ]);
    const created = await tenant.graphql('mutation { createDashboard(input: { name: "Via GraphQL" }) { id name layout } }');
    expect(created.body.data.createDashboard).toMatchObject({ name: 'Via GraphQL', layout: {} });
  });
});
