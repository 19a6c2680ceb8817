import { randomUUID } from 'node:crypto';
import { offsetCursor } from '../../schema/list-cursor';

/** Ids and names read from the two demo tenants once, for the samples below. */
export interface Fixtures {
  dashboardId: string;
  widgetId: string;
  locationId: string;
  locationName: string;
  providerName: string;
  /** The demo tenant's latest revenue day (YYYY-MM-DD), so date windows hold lines. */
  lastDay: string;
  /** The other demo tenant's: the demo tenant must see them as unknown. */
  otherDashboardId: string;
  otherWidgetId: string;
  otherLocationId: string;
}

/** Whose context runs a sample: the demo tenant (default), the other demo tenant, a tenant id no one has, or none (a public route's). */
export type Caller = 'demo' | 'other' | 'unknown' | 'anonymous';

/** One variable set of a route, and what the gateway's answer must be for the sample to mean something. */
export interface Sample {
  name: string;
  variables: Record<string, unknown>;
  as?: Caller;
  /** `rows`: data with rows (a non-empty list, page or query result); `data`: data, no errors, maybe empty; otherwise the first error's code. */
  expect: 'rows' | 'data' | string;
}

const TZ = 'America/Los_Angeles';
const BAD_TZ = { name: 'an unknown timezone (a domain error)', expect: 'BAD_USER_INPUT' };

/** The variables every breakdown route shares, as the bridge hands them over for a query string. */
const window = (f: Fixtures) => ({ timezone: TZ, startDate: shiftDay(f.lastDay, -60), endDate: f.lastDay });

function shiftDay(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The tenant routes take no variables: their cases are whose context asks. `unknown` is what a tenant id no one has gets. */
const tenantCallers = (unknown: Sample['expect']) => (): Sample[] => [
  { name: 'the demo tenant', variables: {}, expect: 'data' },
  { name: 'another tenant', variables: {}, as: 'other', expect: 'data' },
  { name: 'a tenant id no one has', variables: {}, as: 'unknown', expect: unknown },
  { name: 'no tenant in the context', variables: {}, as: 'anonymous', expect: 'UNAUTHENTICATED' },
];

/**
 * Sample variable sets by operationId, as the REST bridge builds them (absent parameters left
 * out, lists as arrays, numbers as numbers): one entry per route the gateway answers with one
 * fetch. A route that becomes one is refused by the test until it gets samples here.
 */
export const SAMPLES: Record<string, (f: Fixtures) => Sample[]> = {
  getPublicTenant: tenantCallers('NOT_FOUND'),
  getPrivateTenant: tenantCallers('NOT_FOUND'),
  getTenantLogo: tenantCallers('NOT_FOUND'),
  // No configuration saved reads as the empty one, for any tenant id.
  getWebhookConfig: tenantCallers('data'),
  listDashboards: (f) => [
    { name: 'the first page, defaults', variables: {}, expect: 'rows' },
    { name: 'page 2 of 1, by name ascending', variables: { after: offsetCursor(1), perPage: 1, sortBy: 'NAME', sortDirection: 'ASC' }, expect: 'rows' },
    { name: 'a name filter', variables: { name: 'revenue' }, expect: 'rows' },
    { name: 'a name filter matching nothing', variables: { name: `none-${randomUUID()}` }, expect: 'data' },
    { name: 'a page past the end', variables: { after: offsetCursor(980) }, expect: 'data' },
    { name: 'an unknown location', variables: { locationId: randomUUID() }, expect: 'data' },
    { name: 'per_page over the limit', variables: { perPage: 100_000 }, expect: 'BAD_USER_INPUT' },
    { name: 'another tenant', variables: { sortBy: 'UPDATED_AT' }, as: 'other', expect: 'rows' },
    { name: "another tenant's location", variables: { locationId: f.otherLocationId }, expect: 'data' },
  ],
  listWidgets: (f) => [
    { name: 'the first page, defaults', variables: {}, expect: 'rows' },
    { name: 'one dashboard', variables: { dashboardId: f.dashboardId, perPage: 100 }, expect: 'rows' },
    { name: 'one chart type, by name', variables: { chartType: 'KPI', sortBy: 'NAME', sortDirection: 'ASC' }, expect: 'rows' },
    { name: 'page 2 of 3', variables: { after: offsetCursor(3), perPage: 3, sortBy: 'CHART_TYPE' }, expect: 'rows' },
    { name: 'archived only (none)', variables: { isArchived: true }, expect: 'data' },
    { name: 'an unknown dashboard', variables: { dashboardId: randomUUID() }, expect: 'data' },
    { name: "another tenant's dashboard", variables: { dashboardId: f.otherDashboardId }, expect: 'data' },
    { name: 'a cursor that is none', variables: { after: 'page-0' }, expect: 'BAD_USER_INPUT' },
  ],
  getWidget: (f) => [
    { name: 'a widget', variables: { id: f.widgetId }, expect: 'data' },
    { name: 'an unknown id', variables: { id: randomUUID() }, expect: 'NOT_FOUND' },
    { name: "another tenant's widget", variables: { id: f.otherWidgetId }, expect: 'NOT_FOUND' },
    { name: "another tenant's widget, asked by that tenant", variables: { id: f.otherWidgetId }, as: 'other', expect: 'data' },
    { name: 'an id that is no UUID', variables: { id: 'not-a-uuid' }, expect: 'NOT_FOUND' },
  ],
  executeAnalyticsQuery: (f) => [
    { name: 'net revenue by payment medium', variables: { query: { measures: ['revenue.netAmount', 'revenue.count'], dimensions: ['revenue.paymentMedium'], timezone: TZ } }, expect: 'rows' },
    {
      name: 'by month over a date range, ordered, wrapped in {query}',
      variables: { query: { query: { measures: ['revenue.grossAmount', 'revenue.discountAmount'], timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'month', dateRange: [shiftDay(f.lastDay, -365), f.lastDay] }], order: { 'revenue.createdAt': 'asc' } } } },
      expect: 'rows',
    },
    { name: 'filtered to one location, top 3 items', variables: { query: { measures: ['revenue.netAmount'], dimensions: ['revenue.itemName'], filters: [{ member: 'revenue.location', operator: 'equals', values: [f.locationName] }], order: { 'revenue.netAmount': 'desc' }, limit: 3 } }, expect: 'rows' },
    { name: 'an unknown measure (refused)', variables: { query: { measures: ['revenue.nope'] } }, expect: 'BAD_USER_INPUT' },
    { name: 'an unknown timezone (refused)', variables: { query: { measures: ['revenue.count'], timezone: 'Mars/Olympus_Mons' } }, expect: 'BAD_USER_INPUT' },
    { name: 'an empty query (refused)', variables: { query: {} }, expect: 'BAD_USER_INPUT' },
    { name: 'another tenant', variables: { query: { measures: ['revenue.netAmount'], dimensions: ['revenue.location'] } }, as: 'other', expect: 'rows' },
  ],
  revenueBreakdownGroups: (f) => [
    { name: 'by location', variables: { groupBy: 'LOCATION', timezone: TZ }, expect: 'rows' },
    { name: 'by day in a window', variables: { groupBy: 'CREATED_DATE', ...window(f) }, expect: 'rows' },
    { name: 'by provider, one location, net amount bounds', variables: { groupBy: 'PROVIDER', timezone: TZ, locationIds: [f.locationId], minNetCents: 1000, maxNetCents: 50_000 }, expect: 'rows' },
    { name: "another tenant's location", variables: { groupBy: 'ITEM_CATEGORY', timezone: TZ, locationIds: [f.otherLocationId] }, expect: 'data' },
    { name: 'a window with no lines', variables: { groupBy: 'PAYMENT_MEDIUM', timezone: TZ, startDate: '1990-01-01', endDate: '1990-12-31' }, expect: 'data' },
    { ...BAD_TZ, variables: { groupBy: 'LOCATION', timezone: 'Mars/Olympus_Mons' } },
    { name: 'a date that is no date', variables: { groupBy: 'LOCATION', timezone: TZ, startDate: '2024-13-45' }, expect: 'BAD_USER_INPUT' },
  ],
  revenueBreakdown: (f) => [
    { name: 'the first page, defaults', variables: { timezone: TZ }, expect: 'rows' },
    { name: "one group's lines", variables: { groupBy: 'LOCATION', groupKey: f.locationId, timezone: TZ, perPage: 5 }, expect: 'rows' },
    { name: 'page 3 by net amount ascending, a window', variables: { ...window(f), sortBy: 'NET_AMOUNT', sortDirection: 'ASC', after: offsetCursor(14), perPage: 7 }, expect: 'rows' },
    { name: 'provider names and item types', variables: { timezone: TZ, providerNames: [f.providerName], itemTypes: ['SERVICE', 'PRODUCT'], perPage: 4 }, expect: 'rows' },
    { name: 'row-level filters (location name, day)', variables: { timezone: TZ, location: f.locationId, createdDate: f.lastDay }, expect: 'data' },
    { name: "another tenant's location", variables: { timezone: TZ, locationIds: [f.otherLocationId] }, expect: 'data' },
    { name: 'per_page over the limit', variables: { timezone: TZ, perPage: 100_000 }, expect: 'BAD_USER_INPUT' },
    { ...BAD_TZ, variables: { timezone: 'Mars/Olympus_Mons' } },
  ],
  revenueBreakdownGroupSummaries: (f) => [
    { name: 'by location', variables: { groupBy: 'LOCATION', timezone: TZ }, expect: 'rows' },
    { name: 'by provider, by average ascending, a window', variables: { groupBy: 'PROVIDER', ...window(f), sortBy: 'AVERAGE_NET_AMOUNT', sortDirection: 'ASC' }, expect: 'rows' },
    { name: 'by category, location names', variables: { groupBy: 'ITEM_CATEGORY', timezone: TZ, locationNames: [f.locationName] }, expect: 'rows' },
    { name: 'a window with no lines', variables: { groupBy: 'CREATED_DATE', timezone: TZ, startDate: '1990-01-01', endDate: '1990-01-02' }, expect: 'data' },
    { ...BAD_TZ, variables: { groupBy: 'LOCATION', timezone: 'Mars/Olympus_Mons' } },
    { name: 'another tenant', variables: { groupBy: 'PAYMENT_MEDIUM', timezone: 'UTC' }, as: 'other', expect: 'rows' },
  ],
  revenueBreakdownSummary: (f) => [
    { name: 'all lines', variables: { timezone: TZ }, expect: 'data' },
    { name: 'a window at one location', variables: { ...window(f), locationIds: [f.locationId] }, expect: 'data' },
    { name: 'no lines (null average and dates)', variables: { timezone: TZ, startDate: '1990-01-01', endDate: '1990-01-02' }, expect: 'data' },
    { name: "another tenant's location", variables: { timezone: TZ, locationIds: [f.otherLocationId] }, expect: 'data' },
    { name: 'end before start', variables: { timezone: TZ, startDate: f.lastDay, endDate: shiftDay(f.lastDay, -10) }, expect: 'BAD_USER_INPUT' },
    { ...BAD_TZ, variables: { timezone: 'Mars/Olympus_Mons' } },
  ],
  // Every tenant's trail starts with its creation and first key, both the operator's.
  listAuditEvents: () => [
    { name: 'the first page, defaults', variables: {}, expect: 'rows' },
    { name: 'page 2 of 1, oldest first', variables: { after: offsetCursor(1), perPage: 1, sortDirection: 'ASC' }, expect: 'rows' },
    { name: 'an action and an actor kind', variables: { action: 'tenant.create', actorKind: 'OPERATOR' }, expect: 'rows' },
    { name: 'a resource id no record names', variables: { resourceId: randomUUID() }, expect: 'data' },
    { name: 'a time window with no records', variables: { from: '1990-01-01T00:00:00Z', to: '1990-01-02T00:00:00Z' }, expect: 'data' },
    { name: 'to before from', variables: { from: '1990-01-02T00:00:00Z', to: '1990-01-01T00:00:00Z' }, expect: 'BAD_USER_INPUT' },
    { name: 'per_page over the limit', variables: { perPage: 101 }, expect: 'BAD_USER_INPUT' },
    { name: 'another tenant', variables: { actorKind: 'OPERATOR' }, as: 'other', expect: 'rows' },
    { name: 'a tenant id no one has', variables: {}, as: 'unknown', expect: 'data' },
    { name: 'no tenant in the context', variables: {}, as: 'anonymous', expect: 'UNAUTHENTICATED' },
  ],
};
