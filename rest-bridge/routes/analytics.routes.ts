import type { DocumentedRoute } from '../openapi';
import { centsBounds, FLOAT_AMOUNTS, INT_AMOUNTS } from './revenue-amounts';

const DASHBOARD = 'id name description locationId layout createdDate: createdAt updatedDate: updatedAt';
const WIDGET = 'id dashboardId name chartType query timezone position { x y w h } isArchived createdDate: createdAt updatedDate: updatedAt';
const ISO = { type: 'string', format: 'date-time' };

/** One widget as REST shows it; spelled out because `GET /analytics/widgets` answers a page's items, not the page. */
const WIDGET_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    dashboardId: { type: 'string' },
    name: { type: 'string' },
    chartType: { type: 'string', enum: ['line', 'bar', 'area', 'pie', 'table', 'kpi'] },
    query: { type: 'object', description: "Analytics query in Cube's REST shape: measures, dimensions, timeDimensions, filters, order, limit, offset, timezone" },
    timezone: { type: 'string', description: "IANA time zone the widget's query runs in: the tenant's unless the widget names one" },
    position: {
      type: 'object',
      properties: { x: { type: 'integer', minimum: 0 }, y: { type: 'integer', minimum: 0 }, w: { type: 'integer', minimum: 1 }, h: { type: 'integer', minimum: 1 } },
      required: ['x', 'y', 'w', 'h'],
    },
    isArchived: { type: 'boolean' },
    createdDate: ISO,
    updatedDate: ISO,
  },
  required: ['id', 'dashboardId', 'name', 'chartType', 'query', 'timezone', 'position', 'isArchived', 'createdDate', 'updatedDate'],
};

const nullable = (type: string) => ({ type: [type, 'null'] });
const CENTS = { type: 'integer', description: 'Integer cents' };
/** Count and amounts of a set of revenue lines (`averageNetAmount` rounded to whole cents; null without lines). */
const AMOUNTS = { count: { type: 'integer' }, grossAmount: CENTS, discountAmount: CENTS, netAmount: CENTS, averageNetAmount: { ...nullable('integer'), description: 'Integer cents, rounded half away from zero' } };
const GROUP = {
  groupKey: { ...nullable('string'), description: 'Location or provider id, item category, payment medium, or YYYY-MM-DD in timezone; null for lines without a provider' },
  groupLabel: { ...nullable('string'), description: 'The location or provider name; otherwise the key' },
};
const object = (properties: Record<string, unknown>) => ({ type: 'object', properties, required: Object.keys(properties) });
const LINE_FIELDS = 'id source locationId locationName providerId providerName patientId patientName itemCategory itemType itemName paymentMedium grossAmount: grossCents discountAmount: discountCents netAmount: netCents comment createdDate: createdAt localDate';
const LINE_SCHEMA = object({
  id: { type: 'string' },
  source: { type: 'string', enum: ['charge_item', 'sold_package'] },
  locationId: { type: 'string' },
  locationName: { type: 'string' },
  providerId: nullable('string'),
  providerName: nullable('string'),
  patientId: nullable('string'),
  patientName: nullable('string'),
  itemCategory: { type: 'string' },
  itemType: { type: 'string', enum: ['product', 'service', 'package'] },
  itemName: { type: 'string' },
  paymentMedium: { type: 'string' },
  grossAmount: CENTS,
  discountAmount: CENTS,
  netAmount: { ...CENTS, description: 'Integer cents: gross minus discount' },
  comment: nullable('string'),
  createdDate: ISO,
  localDate: { type: 'string', format: 'date', description: 'The day of createdDate in the requested timezone (the created_date group key)' },
});

// Contract part 4.3: the filters every breakdown endpoint takes, in the table's order. Amounts are integer cents.
const FILTER_VARIABLES = `$timezone: String!, $startDate: String, $endDate: String, $locationIds: [ID!], $locationNames: [String!],
  $providerIds: [ID!], $providerNames: [String!], $patientIds: [ID!], $patientNames: [String!], $itemCategories: [String!],
  $itemTypes: [RevenueItemType!], $itemNames: [String!], $paymentMediums: [PaymentMedium!], $comment: String`;
const FILTER_ARGS = `timezone: $timezone, startDate: $startDate, endDate: $endDate, locationIds: $locationIds, locationNames: $locationNames,
  providerIds: $providerIds, providerNames: $providerNames, patientIds: $patientIds, patientNames: $patientNames, itemCategories: $itemCategories,
  itemTypes: $itemTypes, itemNames: $itemNames, paymentMediums: $paymentMediums, minNetCents: $minNetCents, maxNetCents: $maxNetCents, comment: $comment`;
const DATES = { start_date: 'startDate', end_date: 'endDate' };
const LISTS = {
  location_ids: 'locationIds', location_names: 'locationNames', provider_ids: 'providerIds', provider_names: 'providerNames', patient_ids: 'patientIds',
  patient_names: 'patientNames', item_categories: 'itemCategories', item_types: 'itemTypes', item_names: 'itemNames', payment_mediums: 'paymentMediums',
};
const AMOUNT_COMMENT = { min_net_amount: 'minNetCents', max_net_amount: 'maxNetCents', comment: 'comment' };
const BREAKDOWN = '/analytics/dashboards/product-sales-breakdown';
const BREAKDOWN_NOTE = 'timezone (IANA) required; list parameters as repeated keys; min/max_net_amount in cents';

// The list parameters every list shares (contract part 4.2); defaults are the variables' defaults, so the document shows them.
const LIST_VARIABLES = '$perPage: Int = 20, $after: String, $sortDirection: SortDirection = DESC, $locationId: ID';
const LIST_PARAMS = { page: 'page', per_page: 'perPage', sort_by: 'sortBy', sort_direction: 'sortDirection', location_id: 'locationId' };

/** Contract parts 4.2 and 4.3: analytics dashboards, widgets, the query engine and the product sales revenue breakdown. */
export const ANALYTICS_ROUTES: DocumentedRoute[] = [
  {
    method: 'POST',
    path: '/analytics/dashboards',
    operationId: 'createDashboard',
    summary: 'Create a dashboard',
    tag: 'Analytics',
    document: `mutation CreateDashboard($input: CreateDashboardInput!) { createDashboard(input: $input) { ${DASHBOARD} } }`,
    body: { variable: 'input', required: true },
    status: 201,
    idempotent: true,
    result: (data) => data.createDashboard,
    requestExample: { name: 'Revenue overview', description: 'Net revenue by month', locationId: null, layout: { columns: 12 } },
  },
  {
    method: 'GET',
    path: '/analytics/dashboards',
    operationId: 'listDashboards',
    summary: 'List dashboards: sort_by name, createdDate (default) or updatedDate; name filters case-insensitively',
    tag: 'Analytics',
    document: `query Dashboards(${LIST_VARIABLES}, $sortBy: DashboardSortField = CREATED_AT, $name: String) {
      dashboards(first: $perPage, after: $after, sortBy: $sortBy, sortDirection: $sortDirection, locationId: $locationId, name: $name) {
        nodes { ${DASHBOARD} } totalCount
      }
    }`,
    queryParams: { ...LIST_PARAMS, name: 'name' },
    paged: 'envelope',
    result: (data) => data.dashboards,
    responseDescription: 'A page of dashboards: {items, total, page, perPage, pages}',
  },
  {
    method: 'PUT',
    path: '/analytics/dashboards/{dashboard_id}',
    operationId: 'updateDashboard',
    summary: 'Update the fields sent of a dashboard',
    tag: 'Analytics',
    document: `mutation UpdateDashboard($id: ID!, $input: UpdateDashboardInput!) { updateDashboard(id: $id, input: $input) { ${DASHBOARD} } }`,
    pathParams: { dashboard_id: 'id' },
    body: { variable: 'input', required: false },
    result: (data) => data.updateDashboard,
  },
  {
    method: 'DELETE',
    path: '/analytics/dashboards/{dashboard_id}',
    operationId: 'deleteDashboard',
    summary: 'Delete a dashboard and its widgets',
    tag: 'Analytics',
    document: `mutation DeleteDashboard($id: ID!) { deleteDashboard(id: $id) }`,
    pathParams: { dashboard_id: 'id' },
    status: 204,
    result: () => undefined,
  },
  {
    method: 'POST',
    path: '/analytics/widgets',
    operationId: 'createWidget',
    summary: "Create a widget on one of the tenant's dashboards (unknown dashboardId: 404); its query is validated",
    tag: 'Analytics',
    document: `mutation CreateWidget($input: CreateWidgetInput!) { createWidget(input: $input) { ${WIDGET} } }`,
    body: { variable: 'input', required: true },
    status: 201,
    idempotent: true,
    result: (data) => data.createWidget,
    requestExample: {
      dashboardId: '3f0e4c8a-2b1d-4a7e-9c55-0d6f1e2a3b4c',
      name: 'Net revenue by month',
      chartType: 'line',
      query: { measures: ['revenue.netAmount'], timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'month' }] },
      position: { x: 0, y: 0, w: 6, h: 4 },
    },
  },
  {
    method: 'GET',
    path: '/analytics/widgets',
    operationId: 'listWidgets',
    summary: 'List widgets as a plain array (paginated by page/per_page): sort_by name, chartType, createdDate (default) or updatedDate',
    tag: 'Analytics',
    document: `query Widgets(${LIST_VARIABLES}, $sortBy: WidgetSortField = CREATED_AT, $dashboardId: ID, $chartType: ChartType, $isArchived: Boolean) {
      widgets(first: $perPage, after: $after, sortBy: $sortBy, sortDirection: $sortDirection, locationId: $locationId,
              dashboardId: $dashboardId, chartType: $chartType, isArchived: $isArchived) {
        nodes { ${WIDGET} } totalCount
      }
    }`,
    queryParams: { ...LIST_PARAMS, dashboard_id: 'dashboardId', chart_type: 'chartType', is_archived: 'isArchived' },
    paged: 'items',
    result: (data) => data.widgets,
    responseSchema: { type: 'array', items: WIDGET_SCHEMA },
    responseDescription: "One page of widgets, as a JSON array (the contract's shape)",
  },
  {
    method: 'GET',
    path: '/analytics/widgets/{widget_id}',
    operationId: 'getWidget',
    summary: 'Read a widget',
    tag: 'Analytics',
    document: `query Widget($id: ID!) { widget(id: $id) { ${WIDGET} } }`,
    pathParams: { widget_id: 'id' },
    result: (data) => data.widget,
  },
  {
    method: 'PUT',
    path: '/analytics/widgets/{widget_id}',
    operationId: 'updateWidget',
    summary: 'Update the fields sent of a widget (a new dashboardId moves it)',
    tag: 'Analytics',
    document: `mutation UpdateWidget($id: ID!, $input: UpdateWidgetInput!) { updateWidget(id: $id, input: $input) { ${WIDGET} } }`,
    pathParams: { widget_id: 'id' },
    body: { variable: 'input', required: false },
    result: (data) => data.updateWidget,
  },
  {
    method: 'DELETE',
    path: '/analytics/widgets/{widget_id}',
    operationId: 'deleteWidget',
    summary: 'Delete a widget',
    tag: 'Analytics',
    document: `mutation DeleteWidget($id: ID!) { deleteWidget(id: $id) }`,
    pathParams: { widget_id: 'id' },
    status: 204,
    result: () => undefined,
  },
  {
    method: 'POST',
    path: '/analytics/widgets/execute-query',
    operationId: 'executeAnalyticsQuery',
    summary: "Run an analytics query in Cube's REST format, sent as the body itself or as {\"query\": {...}}; rows keyed by member name, money in integer cents",
    tag: 'Analytics',
    document: `query ExecuteAnalyticsQuery($query: JSON!) { executeAnalyticsQuery(query: $query) { query data annotation } }`,
    body: { variable: 'query', required: true },
    result: (data) => data.executeAnalyticsQuery,
    responseSchema: object({
      query: { type: 'object', description: 'The query as run: defaults applied (limit 1000, timezone UTC), relative dateRanges resolved, order as [member, direction] pairs' },
      data: { type: 'array', items: { type: 'object' }, description: 'Rows keyed by member name; measures are JSON numbers (integer cents), times wall-clock texts in the query timezone' },
      annotation: { type: 'object', description: '{measures, dimensions, segments, timeDimensions}: title, shortTitle, type (and meta.unit "cents") of each key' },
    }),
    requestExample: {
      measures: ['revenue.netAmount', 'revenue.count'],
      dimensions: ['revenue.location'],
      timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'month', dateRange: 'last 12 months' }],
      filters: [{ member: 'revenue.paymentMedium', operator: 'notEquals', values: ['gift_card'] }],
      order: { 'revenue.createdAt': 'asc' },
      timezone: 'America/New_York',
    },
  },
  {
    method: 'GET',
    path: `${BREAKDOWN}/revenue-breakdown-groups`,
    operationId: 'revenueBreakdownGroups',
    summary: `Distinct group keys with their line counts, the most recently active group first (${BREAKDOWN_NOTE})`,
    tag: 'Analytics',
    document: `query RevenueBreakdownGroups($groupBy: RevenueGroupBy!, ${FILTER_VARIABLES}, $minNetCents: SafeInt, $maxNetCents: SafeInt) {
      revenueBreakdownGroups(groupBy: $groupBy, ${FILTER_ARGS}) { groupKey groupLabel totalCount }
    }`,
    queryParams: { group_by: 'groupBy', timezone: 'timezone', ...DATES, ...LISTS, ...AMOUNT_COMMENT },
    restScalars: FLOAT_AMOUNTS,
    variables: centsBounds,
    result: (data) => data.revenueBreakdownGroups,
    responseSchema: { type: 'array', items: object({ ...GROUP, totalCount: { type: 'integer' } }) },
  },
  {
    method: 'GET',
    path: `${BREAKDOWN}/revenue-breakdown`,
    operationId: 'revenueBreakdown',
    summary: `Revenue lines, paginated: sort_by created_date (default), location, provider, patient, item_category, item_type, item_name, payment_medium, gross_amount, discount_amount or net_amount; group_key (with group_by) and the row-level group filters take group keys (${BREAKDOWN_NOTE})`,
    tag: 'Analytics',
    document: `query RevenueBreakdown($groupBy: RevenueGroupBy, $groupKey: String, $sortBy: RevenueBreakdownSortField = CREATED_DATE, $sortDirection: SortDirection = DESC,
      ${FILTER_VARIABLES}, $minNetCents: SafeInt, $maxNetCents: SafeInt, $itemCategory: String, $location: String, $provider: String, $paymentMedium: String,
      $createdDate: String, $perPage: Int = 20, $after: String) {
      revenueBreakdown(groupBy: $groupBy, groupKey: $groupKey, sortBy: $sortBy, sortDirection: $sortDirection, ${FILTER_ARGS}, itemCategory: $itemCategory,
        location: $location, provider: $provider, paymentMedium: $paymentMedium, createdDate: $createdDate, first: $perPage, after: $after) {
        nodes { ${LINE_FIELDS} } totalCount
      }
    }`,
    queryParams: {
      group_by: 'groupBy', group_key: 'groupKey', timezone: 'timezone', sort_by: 'sortBy', sort_direction: 'sortDirection', ...DATES, ...LISTS, ...AMOUNT_COMMENT,
      item_category: 'itemCategory', location: 'location', provider: 'provider', payment_medium: 'paymentMedium', created_date: 'createdDate', page: 'page', per_page: 'perPage',
    },
    restScalars: FLOAT_AMOUNTS,
    variables: centsBounds,
    paged: 'envelope',
    result: (data) => data.revenueBreakdown,
    responseSchema: object({ items: { type: 'array', items: LINE_SCHEMA }, total: { type: 'integer' }, page: { type: 'integer' }, perPage: { type: 'integer' }, pages: { type: 'integer' } }),
    responseDescription: 'A page of revenue lines: {items, total, page, perPage, pages}',
  },
  {
    method: 'GET',
    path: `${BREAKDOWN}/revenue-breakdown-group-summaries`,
    operationId: 'revenueBreakdownGroupSummaries',
    summary: `Count and amounts per group: sort_by created_date (the group's latest line; default), group_label, count, gross_amount, discount_amount, net_amount or average_net_amount (${BREAKDOWN_NOTE})`,
    tag: 'Analytics',
    document: `query RevenueBreakdownGroupSummaries($groupBy: RevenueGroupBy!, $sortBy: RevenueGroupSortField = CREATED_DATE, $sortDirection: SortDirection = DESC,
      ${FILTER_VARIABLES}, $minNetCents: SafeInt, $maxNetCents: SafeInt) {
      revenueBreakdownGroupSummaries(groupBy: $groupBy, sortBy: $sortBy, sortDirection: $sortDirection, ${FILTER_ARGS}) {
        groupKey groupLabel count grossAmount: grossCents discountAmount: discountCents netAmount: netCents averageNetAmount: averageNetCents
      }
    }`,
    queryParams: { group_by: 'groupBy', timezone: 'timezone', sort_by: 'sortBy', sort_direction: 'sortDirection', ...DATES, ...LISTS, ...AMOUNT_COMMENT },
    restScalars: INT_AMOUNTS,
    result: (data) => data.revenueBreakdownGroupSummaries,
    responseSchema: { type: 'array', items: object({ ...GROUP, ...AMOUNTS }) },
  },
  {
    method: 'GET',
    path: `${BREAKDOWN}/revenue-breakdown-summary`,
    operationId: 'revenueBreakdownSummary',
    summary: `Count and amounts of all filtered lines; takes the same filters as the other three (${BREAKDOWN_NOTE})`,
    tag: 'Analytics',
    document: `query RevenueBreakdownSummary(${FILTER_VARIABLES}, $minNetCents: SafeInt, $maxNetCents: SafeInt) {
      revenueBreakdownSummary(${FILTER_ARGS}) {
        count grossAmount: grossCents discountAmount: discountCents netAmount: netCents averageNetAmount: averageNetCents chargeItemCount soldPackageCount firstDate: firstLineAt lastDate: lastLineAt
      }
    }`,
    queryParams: { timezone: 'timezone', ...DATES, ...LISTS, ...AMOUNT_COMMENT },
    restScalars: FLOAT_AMOUNTS,
    variables: centsBounds,
    result: (data) => data.revenueBreakdownSummary,
    responseSchema: object({
      ...AMOUNTS,
      chargeItemCount: { type: 'integer', description: 'Lines that are charge items (product and service sales)' },
      soldPackageCount: { type: 'integer', description: 'Lines that are sold packages' },
      firstDate: { ...nullable('string'), format: 'date-time', description: 'The earliest line; null without lines' },
      lastDate: { ...nullable('string'), format: 'date-time', description: 'The latest line' },
    }),
  },
];
