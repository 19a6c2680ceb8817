import { baseUrl, request } from '../utils/e2e';

const BREAKDOWN = '/analytics/dashboards/product-sales-breakdown';
const FILTERS = ['start_date', 'end_date', 'location_ids', 'location_names', 'provider_ids', 'provider_names', 'patient_ids', 'patient_names', 'item_categories', 'item_types', 'item_names', 'payment_mediums', 'min_net_amount', 'max_net_amount', 'comment'];

describe(`query engine and revenue breakdown in the OpenAPI document (${process.env.E2E_MODE} mode)`, () => {
  let doc: any;
  beforeAll(async () => {
    doc = (await request(`${baseUrl()}/openapi.json`)).body;
  });
  const params = (path: string) => Object.fromEntries(doc.paths[path].get.parameters.map((p: any) => [p.name, p]));

  it('lists execute-query after the widget routes and the four 4.3 paths, each answering 200 or 422', () => {
    const paths = Object.keys(doc.paths);
    expect(paths.indexOf('/analytics/widgets/execute-query')).toBe(paths.indexOf('/analytics/widgets/{widget_id}') + 1);
    expect(paths.slice(paths.indexOf(`${BREAKDOWN}/revenue-breakdown-groups`), paths.indexOf(`${BREAKDOWN}/revenue-breakdown-summary`) + 1)).toEqual(
      ['revenue-breakdown-groups', 'revenue-breakdown', 'revenue-breakdown-group-summaries', 'revenue-breakdown-summary'].map((s) => `${BREAKDOWN}/${s}`),
    );
    expect(Object.keys(doc.paths['/analytics/widgets/execute-query'].post.responses)).toEqual(expect.arrayContaining(['200', '422']));
    for (const suffix of ['revenue-breakdown-groups', 'revenue-breakdown', 'revenue-breakdown-group-summaries', 'revenue-breakdown-summary']) {
      expect(Object.keys(doc.paths[`${BREAKDOWN}/${suffix}`].get.responses)).toEqual(expect.arrayContaining(['200', '422']));
    }
  });

  it("carries every parameter of the contract's table, in its order, timezone required, lists as repeated keys", () => {
    expect(Object.keys(params(`${BREAKDOWN}/revenue-breakdown-groups`))).toEqual(['group_by', 'timezone', ...FILTERS]);
    expect(Object.keys(params(`${BREAKDOWN}/revenue-breakdown`))).toEqual([
      'group_by', 'group_key', 'timezone', 'sort_by', 'sort_direction', ...FILTERS, 'item_category', 'location', 'provider', 'payment_medium', 'created_date', 'page', 'per_page',
    ]);
    expect(Object.keys(params(`${BREAKDOWN}/revenue-breakdown-group-summaries`))).toEqual(['group_by', 'timezone', 'sort_by', 'sort_direction', ...FILTERS]);
    expect(Object.keys(params(`${BREAKDOWN}/revenue-breakdown-summary`))).toEqual(['timezone', ...FILTERS]);
    const detail = params(`${BREAKDOWN}/revenue-breakdown`);
    expect(detail.timezone.required).toBe(true);
    expect(detail.group_by.required).toBe(false);
    expect(params(`${BREAKDOWN}/revenue-breakdown-groups`).group_by.required).toBe(true);
    expect(detail.location_ids).toMatchObject({ style: 'form', explode: true, schema: { type: ['array', 'null'] } });
    expect(detail.sort_by.schema).toMatchObject({ default: 'created_date', enum: expect.arrayContaining(['created_date', 'net_amount', 'patient']) });
    expect(detail.sort_direction.schema).toMatchObject({ default: 'desc' });
    expect(detail.min_net_amount.schema.type).toEqual(['number', 'null']);
    expect(params(`${BREAKDOWN}/revenue-breakdown-group-summaries`).min_net_amount.schema.type).toEqual(['integer', 'null']);
  });

  it('documents the response shapes', () => {
    const body = (path: string, method = 'get') => doc.paths[path][method].responses['200'].content['application/json'].schema;
    expect(body(`${BREAKDOWN}/revenue-breakdown-groups`).items.required).toEqual(['groupKey', 'groupLabel', 'totalCount']);
    expect(body(`${BREAKDOWN}/revenue-breakdown`).required).toEqual(['items', 'total', 'page', 'perPage', 'pages']);
    expect(body(`${BREAKDOWN}/revenue-breakdown-group-summaries`).items.required).toEqual(['groupKey', 'groupLabel', 'count', 'grossAmount', 'discountAmount', 'netAmount', 'averageNetAmount']);
    expect(body(`${BREAKDOWN}/revenue-breakdown-summary`).required).toEqual(['count', 'grossAmount', 'discountAmount', 'netAmount', 'averageNetAmount', 'chargeItemCount', 'soldPackageCount', 'firstDate', 'lastDate']);
    expect(body('/analytics/widgets/execute-query', 'post').required).toEqual(['query', 'data', 'annotation']);
    expect(doc.paths['/analytics/widgets/execute-query'].post.requestBody).toMatchObject({ required: true, content: { 'application/json': { example: { measures: expect.any(Array) } } } });
  });
});
