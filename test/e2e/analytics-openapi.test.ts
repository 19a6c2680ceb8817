import { baseUrl, request } from '../utils/e2e';

describe(`analytics and campaign routes in the OpenAPI document (${process.env.E2E_MODE} mode)`, () => {
  let doc: any;
  beforeAll(async () => {
    doc = (await request(`${baseUrl()}/openapi.json`)).body;
  });

  it('lists every 4.2 and 4.5 path with its success status', () => {
    const statuses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses).filter((s) => s.startsWith('2'));
    expect(statuses('/analytics/dashboards', 'post')).toEqual(['201']);
    expect(statuses('/analytics/dashboards', 'get')).toEqual(['200']);
    expect(statuses('/analytics/dashboards/{dashboard_id}', 'put')).toEqual(['200']);
    expect(statuses('/analytics/dashboards/{dashboard_id}', 'delete')).toEqual(['204']);
    expect(statuses('/analytics/widgets', 'post')).toEqual(['201']);
    expect(statuses('/analytics/widgets', 'get')).toEqual(['200']);
    expect(statuses('/analytics/widgets/{widget_id}', 'get')).toEqual(['200']);
    expect(statuses('/analytics/widgets/{widget_id}', 'put')).toEqual(['200']);
    expect(statuses('/analytics/widgets/{widget_id}', 'delete')).toEqual(['204']);
    expect(statuses('/opportunity/campaign/{campaign_id}', 'put')).toEqual(['200']);
    expect(statuses('/opportunity/leads/{webhook_key}', 'post')).toEqual(['201']);
  });

  it('documents the sort_by whitelists and the list defaults', () => {
    const params = (path: string) => Object.fromEntries(doc.paths[path].get.parameters.map((p: any) => [p.name, p.schema]));
    const dashboards = params('/analytics/dashboards');
    expect(dashboards.sort_by).toMatchObject({ enum: ['name', 'createdDate', 'updatedDate', null], default: 'createdDate' });
    expect(dashboards.sort_direction).toMatchObject({ enum: ['asc', 'desc', null], default: 'desc' });
    expect(dashboards.page.default).toBe(1);
    expect(dashboards.per_page.default).toBe(20);
    expect(Object.keys(dashboards)).toEqual(['page', 'per_page', 'sort_by', 'sort_direction', 'location_id', 'name']);
    const widgets = params('/analytics/widgets');
    expect(widgets.sort_by.enum).toEqual(['name', 'chartType', 'createdDate', 'updatedDate', null]);
    expect(Object.keys(widgets)).toEqual(['page', 'per_page', 'sort_by', 'sort_direction', 'location_id', 'dashboard_id', 'chart_type', 'is_archived']);
  });

  it('describes the widget list as a plain array and the dashboard list as a page envelope', () => {
    const body = (path: string) => doc.paths[path].get.responses['200'].content['application/json'].schema;
    expect(body('/analytics/widgets')).toMatchObject({ type: 'array', items: { type: 'object', required: expect.arrayContaining(['id', 'query', 'position']) } });
    expect(body('/analytics/dashboards').required).toEqual(['items', 'total', 'page', 'perPage', 'pages']);
  });

  it('marks the lead webhook as needing no credentials', () => {
    const lead = doc.paths['/opportunity/leads/{webhook_key}'].post;
    expect(lead.security).toEqual([]);
    expect(Object.keys(lead.responses)).not.toContain('401');
    expect(doc.paths['/opportunity/campaign/{campaign_id}'].put.security).toBeUndefined();
  });

  it("gives the lead webhook the anonymous body cap's 413, and its key's 404 and 409 answered before the body", () => {
    const { responses } = doc.paths['/opportunity/leads/{webhook_key}'].post;
    expect(responses['413'].description).toMatch(/^Request body too large: over `PUBLIC_BODY_LIMIT_BYTES` \(32 KiB by default/);
    expect(responses['413'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorDetail' });
    for (const status of ['404', '409']) expect(responses[status].description).toMatch(/answered from the path before the body is read/);
    // A tenant route keeps the tenant's cap, and its 404 says nothing of the body.
    const put = doc.paths['/opportunity/campaign/{campaign_id}'].put.responses;
    expect(put['413'].description).toMatch(/`BODY_LIMIT_BYTES`/);
    expect(put['404'].description).not.toMatch(/before the body/);
  });
});
