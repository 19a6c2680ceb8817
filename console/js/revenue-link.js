// The revenue explorer's view as a link: every filter, the grouping, the group opened, the sort and
// the page live in the hash's query (`#/revenue?timezone=America%2FNew_York&providerNames=Dr.+Ada&page=2`),
// so a link reproduces the view for anyone of the tenant who opens it, and back/forward step through views.

/** Filters that take several values: one URL parameter per value, named as the GraphQL argument. */
export const LIST_KEYS = ['locationIds', 'locationNames', 'providerIds', 'providerNames', 'patientIds', 'patientNames', 'itemCategories', 'itemTypes', 'itemNames', 'paymentMediums'];
/**
 * List filters whose values are codes (PaymentMedium and RevenueItemType on the graph). Views and links
 * hold them in the stored spelling (`wallet_pay`), as group keys and query engine rows give them, so a
 * checkbox, a drill-down and an older link agree; filterVariables sends the graph's names.
 */
export const CODED_KEYS = ['itemTypes', 'paymentMediums'];
/** Filters and view settings with one value; minNet and maxNet are in the currency's units (`12.50`), as typed. */
export const ONE_KEYS = ['timezone', 'startDate', 'endDate', 'comment', 'minNet', 'maxNet', 'groupBy', 'groupKey', 'sortBy', 'sortDirection', 'page', 'perPage'];
/**
 * The settings whose values are GraphQL enum values (RevenueGroupBy, RevenueBreakdownSortField, SortDirection).
 * A view holds them as the graph spells them (`PAYMENT_MEDIUM`); a link spells them lower-case
 * (`groupBy=payment_medium`), as links did before the graph's names became SCREAMING_SNAKE_CASE and as
 * REST spells them, so links stay readable and bookmarks keep working; a link in either case is read.
 */
const ENUM_KEYS = new Set(['groupBy', 'sortBy', 'sortDirection']);

/** The link of an explorer view (`{ timezone, providerNames: [...], page: 2, ... }`); absent and empty values are left out, but an empty groupKey. */
export function revenueHref(view = {}) {
  const params = new URLSearchParams();
  for (const key of ONE_KEYS) {
    const value = view[key];
    // An empty groupKey names a group of its own (the lines whose key is null: no provider), so it stays.
    if (value !== undefined && value !== null && (value !== '' || key === 'groupKey')) params.append(key, ENUM_KEYS.has(key) ? String(value).toLowerCase() : String(value));
  }
  for (const key of LIST_KEYS) for (const value of view[key] ?? []) params.append(key, String(value));
  const query = params.toString();
  return query ? `#/revenue?${query}` : '#/revenue';
}

/** The view a link names (the inverse of revenueHref): lists as arrays, page and perPage as numbers, enum values in the graph's spelling; unknown parameters ignored. */
export function readRevenueView(params) {
  const view = {};
  for (const key of ONE_KEYS) if (params.has(key)) view[key] = ENUM_KEYS.has(key) ? params.get(key).toUpperCase() : params.get(key);
  for (const key of LIST_KEYS) if (params.has(key)) view[key] = CODED_KEYS.includes(key) ? params.getAll(key).map((v) => v.toLowerCase()) : params.getAll(key);
  for (const key of ['page', 'perPage']) {
    if (view[key] === undefined) continue;
    const number = Number.parseInt(view[key], 10);
    if (Number.isFinite(number) && number > 0) view[key] = number;
    else delete view[key];
  }
  return view;
}
