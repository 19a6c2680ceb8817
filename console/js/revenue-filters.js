import { currentTenant, graphql } from './api.js';
import { field, h, select, uid } from './dom.js';

/** RevenueGroupBy of the schema, with labels; a test checks it against schema/supergraph.graphql. */
export const GROUP_BY = [['location', 'Location'], ['provider', 'Provider'], ['item_category', 'Item category'], ['payment_medium', 'Payment medium'], ['created_date', 'Day']];
/** RevenueBreakdownSortField of the schema, with labels; checked the same way. */
export const SORT_FIELDS = [['created_date', 'Date'], ['location', 'Location'], ['provider', 'Provider'], ['patient', 'Patient'], ['item_category', 'Item category'], ['item_type', 'Item type'], ['item_name', 'Item name'], ['payment_medium', 'Payment medium'], ['gross_amount', 'Gross amount'], ['discount_amount', 'Discount amount'], ['net_amount', 'Net amount']];

// What the pickers offer comes from the tenant's own revenue lines: the API's group keys (ids for
// locations and providers), so a choice is always a value the breakdown filters on.
const OPTIONS = `query RevenueOptions($timezone: String!, $types: JSON!) {
  locations: revenueBreakdownGroups(timezone: $timezone, groupBy: location) { groupKey groupLabel }
  providers: revenueBreakdownGroups(timezone: $timezone, groupBy: provider) { groupKey groupLabel }
  categories: revenueBreakdownGroups(timezone: $timezone, groupBy: item_category) { groupKey groupLabel }
  mediums: revenueBreakdownGroups(timezone: $timezone, groupBy: payment_medium) { groupKey groupLabel }
  types: executeAnalyticsQuery(query: $types) { data }
}`;

function checks(legend, name, options) {
  const list = options
    .filter(([key]) => key !== null && key !== '')
    .sort((a, b) => a[1].localeCompare(b[1]))
    .map(([key, label]) => h('label', { className: 'check' }, h('input', { type: 'checkbox', name, value: key }), ` ${label}`));
  return h('fieldset', { className: 'checks compact' }, h('legend', {}, legend), h('div', { className: 'check-list' }, list.length ? list : h('span', { className: 'hint' }, 'None in the data')));
}

/** The explorer's filter fields (the contract's filters) and a reader of them into GraphQL variables. */
export async function revenueFilters(model) {
  const tenantZone = currentTenant()?.timezone ?? 'UTC';
  const cube = model.cubes[0].name;
  const options = await graphql(OPTIONS, { timezone: tenantZone, types: { dimensions: [`${cube}.itemType`], measures: [`${cube}.count`] } });
  const pairs = (groups) => groups.map((g) => [g.groupKey, g.groupLabel ?? g.groupKey]);
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const timezone = select([...new Set(['UTC', tenantZone, ...zones])].map((z) => [z, z]), { name: 'timezone', value: tenantZone });
  const startDate = h('input', { type: 'date', name: 'startDate' });
  const endDate = h('input', { type: 'date', name: 'endDate' });
  const minNet = h('input', { type: 'number', name: 'minNetAmount', step: '0.01', inputmode: 'decimal', size: 8 });
  const maxNet = h('input', { type: 'number', name: 'maxNetAmount', step: '0.01', inputmode: 'decimal', size: 8 });
  const comment = h('input', { type: 'search', name: 'comment' });
  const groupBy = select([['', 'No grouping'], ...GROUP_BY], { name: 'groupBy', value: '' });
  const sortBy = select(SORT_FIELDS, { name: 'sortBy', value: 'created_date' });
  const sortDirection = select([['desc', 'Descending'], ['asc', 'Ascending']], { name: 'sortDirection', value: 'desc' });
  const perPage = select([['20', '20'], ['50', '50'], ['100', '100']], { name: 'perPage', value: '20' });
  const currency = currentTenant()?.currency ?? 'USD';
  const sets = {
    locationIds: checks('Locations', 'locationIds', pairs(options.locations)),
    providerIds: checks('Providers', 'providerIds', pairs(options.providers)),
    itemCategories: checks('Item categories', 'itemCategories', pairs(options.categories)),
    itemTypes: checks('Item types', 'itemTypes', options.types.data.map((row) => [row[`${cube}.itemType`], row[`${cube}.itemType`]])),
    paymentMediums: checks('Payment media', 'paymentMediums', pairs(options.mediums)),
  };
  const elements = [
    h(
      'div',
      { className: 'row' },
      field('Time zone', timezone, { errorKey: 'timezone' }),
      field('From', startDate, { errorKey: 'startDate' }),
      field('To (inclusive)', endDate, { errorKey: 'endDate' }),
      field(`Min net per line (${currency})`, minNet, { errorKey: 'minNetAmount' }),
      field(`Max net per line (${currency})`, maxNet, { errorKey: 'maxNetAmount' }),
      field('Comment contains', comment, { errorKey: 'comment' }),
    ),
    h('div', { className: 'row checks-row' }, Object.values(sets)),
    h('div', { className: 'row' }, field('Group by', groupBy), field('Sort lines by', sortBy), field('Direction', sortDirection), field('Lines per page', perPage)),
  ];
  // Amounts are typed in currency units and sent in integer cents, as the API takes them.
  const cents = (input) => (input.value.trim() === '' ? undefined : Math.round(Number(input.value) * 100));

  /** The contract's filters as GraphQL variables (absent when not set). */
  function read() {
    const variables = { timezone: timezone.value };
    if (startDate.value) variables.startDate = startDate.value;
    if (endDate.value) variables.endDate = endDate.value;
    for (const [name, set] of Object.entries(sets)) {
      const chosen = [...set.querySelectorAll('input:checked')].map((box) => box.value);
      if (chosen.length) variables[name] = chosen;
    }
    if (comment.value.trim()) variables.comment = comment.value.trim();
    if (cents(minNet) !== undefined) variables.minNetAmount = cents(minNet);
    if (cents(maxNet) !== undefined) variables.maxNetAmount = cents(maxNet);
    return variables;
  }
  const view = () => ({ groupBy: groupBy.value || null, sortBy: sortBy.value, sortDirection: sortDirection.value, perPage: Number(perPage.value) });
  return { elements, read, view, id: uid('filters') };
}
