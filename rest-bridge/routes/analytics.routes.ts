import type { DocumentedRoute } from '../openapi';

const DASHBOARD = 'id name description locationId layout createdDate updatedDate';
const WIDGET = 'id dashboardId name chartType query position { x y w h } isArchived createdDate updatedDate';
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
    position: {
      type: 'object',
      properties: { x: { type: 'integer', minimum: 0 }, y: { type: 'integer', minimum: 0 }, w: { type: 'integer', minimum: 1 }, h: { type: 'integer', minimum: 1 } },
      required: ['x', 'y', 'w', 'h'],
    },
    isArchived: { type: 'boolean' },
    createdDate: ISO,
    updatedDate: ISO,
  },
  required: ['id', 'dashboardId', 'name', 'chartType', 'query', 'position', 'isArchived', 'createdDate', 'updatedDate'],
};

// The list parameters every list shares (contract part 4.2); defaults are the variables' defaults, so the document shows them.
const LIST_VARIABLES = '$page: Int = 1, $perPage: Int = 20, $sortDirection: SortDirection = desc, $locationId: String';
const LIST_PARAMS = { page: 'page', per_page: 'perPage', sort_by: 'sortBy', sort_direction: 'sortDirection', location_id: 'locationId' };

/** Contract part 4.2: analytics dashboards and widgets (`execute-query` arrives with the query engine). */
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
    document: `query Dashboards(${LIST_VARIABLES}, $sortBy: DashboardSortField = createdDate, $name: String) {
      dashboards(page: $page, perPage: $perPage, sortBy: $sortBy, sortDirection: $sortDirection, locationId: $locationId, name: $name) {
        items { ${DASHBOARD} } total page perPage pages
      }
    }`,
    queryParams: { ...LIST_PARAMS, name: 'name' },
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
    document: `query Widgets(${LIST_VARIABLES}, $sortBy: WidgetSortField = createdDate, $dashboardId: ID, $chartType: ChartType, $isArchived: Boolean) {
      widgets(page: $page, perPage: $perPage, sortBy: $sortBy, sortDirection: $sortDirection, locationId: $locationId,
              dashboardId: $dashboardId, chartType: $chartType, isArchived: $isArchived) {
        items { ${WIDGET} }
      }
    }`,
    queryParams: { ...LIST_PARAMS, dashboard_id: 'dashboardId', chart_type: 'chartType', is_archived: 'isArchived' },
    result: (data) => data.widgets.items,
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
];
