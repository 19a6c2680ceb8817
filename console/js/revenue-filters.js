import { currentTenant, graphql } from './api.js';
import { field, h, replace, select, uid } from './dom.js';
import { valueLabel } from './labels.js';
import { CODED_KEYS, LIST_KEYS } from './revenue-link.js';

// The explorer's settings hold enum values as the graph spells them (SCREAMING_SNAKE_CASE), sent as
// they are; only its link spells them lower-case (revenue-link.js).
/** RevenueGroupBy of the schema, with labels; a test checks it against schema/supergraph.graphql. */
export const GROUP_BY = [['LOCATION', 'Location'], ['PROVIDER', 'Provider'], ['ITEM_CATEGORY', 'Item category'], ['PAYMENT_MEDIUM', 'Payment medium'], ['CREATED_DATE', 'Day']];
/** RevenueBreakdownSortField of the schema, with labels; checked the same way. */
export const SORT_FIELDS = [['CREATED_DATE', 'Date'], ['LOCATION', 'Location'], ['PROVIDER', 'Provider'], ['PATIENT', 'Patient'], ['ITEM_CATEGORY', 'Item category'], ['ITEM_TYPE', 'Item type'], ['ITEM_NAME', 'Item name'], ['PAYMENT_MEDIUM', 'Payment medium'], ['GROSS_AMOUNT', 'Gross amount'], ['DISCOUNT_AMOUNT', 'Discount amount'], ['NET_AMOUNT', 'Net amount']];

// What the pickers offer comes from the tenant's own revenue lines: the API's group keys (ids for
// locations and providers), so a choice is always a value the breakdown filters on.
const OPTIONS = `query RevenueOptions($timezone: String!, $types: JSON!) {
  locations: revenueBreakdownGroups(timezone: $timezone, groupBy: LOCATION) { groupKey groupLabel }
  providers: revenueBreakdownGroups(timezone: $timezone, groupBy: PROVIDER) { groupKey groupLabel }
  categories: revenueBreakdownGroups(timezone: $timezone, groupBy: ITEM_CATEGORY) { groupKey groupLabel }
  mediums: revenueBreakdownGroups(timezone: $timezone, groupBy: PAYMENT_MEDIUM) { groupKey groupLabel }
  types: executeAnalyticsQuery(query: $types) { data }
}`;

function checks(legend, name, options) {
  const list = options
    .filter(([key]) => key !== null && key !== '')
    .sort((a, b) => a[1].localeCompare(b[1]))
    .map(([key, label]) => h('label', { className: 'check' }, h('input', { type: 'checkbox', name, value: key }), ` ${label}`));
  return h('fieldset', { className: 'checks compact' }, h('legend', {}, legend), h('div', { className: 'check-list' }, list.length ? list : h('span', { className: 'hint' }, 'None in the data')));
}

/** What a chip says a filter is ("Provider: Dr. Ada"): the filters the form has no field for, and values a link names that no box offers. */
const CHIP_LABELS = { locationNames: 'Location', providerNames: 'Provider', patientIds: 'Patient id', patientNames: 'Patient', itemNames: 'Item', locationIds: 'Location id', providerIds: 'Provider id', itemCategories: 'Item category', itemTypes: 'Item type', paymentMediums: 'Payment medium' };
// The labels.js member of list filters that hold codes.
const CODED = { paymentMediums: 'paymentMedium', itemTypes: 'itemType' };
const DEFAULTS = { groupBy: '', sortBy: 'CREATED_DATE', sortDirection: 'DESC', perPage: '20' };

/** Sets a select to `value`, or to `fallback` when it offers no such value (a stale or hand-edited link). */
function choose(element, value, fallback) {
  const offered = [...element.options].some((option) => option.value === value);
  element.value = offered ? value : fallback;
}

// Amounts are typed (and linked) in currency units and sent in integer cents, as the API takes them.
const cents = (text) => {
  if (text === undefined || text === null || String(text).trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? Math.round(value * 100) : undefined;
};

/** The GraphQL filter variables of an explorer view (revenue-link.js's shape), codes as the graph's enum names; absent filters are left out. */
export function filterVariables(view) {
  const variables = { timezone: view.timezone };
  for (const key of ['startDate', 'endDate', 'comment']) if (view[key]) variables[key] = view[key];
  for (const key of LIST_KEYS) if (view[key]?.length) variables[key] = CODED_KEYS.includes(key) ? view[key].map((code) => code.toUpperCase()) : view[key];
  if (cents(view.minNet) !== undefined) variables.minNetCents = cents(view.minNet);
  if (cents(view.maxNet) !== undefined) variables.maxNetCents = cents(view.maxNet);
  return variables;
}

/**
 * The explorer's filter fields (the contract's filters), chips for the filters it has no field for,
 * fill() to set them from a view (a link) and view() to read them back as one.
 * `onChipRemoved` runs after a chip's ✕ took its filter off (the explorer applies the form then).
 */
export async function revenueFilters(model, { onChipRemoved = () => {} } = {}) {
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
  const groupBy = select([['', 'No grouping'], ...GROUP_BY], { name: 'groupBy', value: DEFAULTS.groupBy });
  const sortBy = select(SORT_FIELDS, { name: 'sortBy', value: DEFAULTS.sortBy });
  const sortDirection = select([['DESC', 'Descending'], ['ASC', 'Ascending']], { name: 'sortDirection', value: DEFAULTS.sortDirection });
  const perPage = select([['20', '20'], ['50', '50'], ['100', '100']], { name: 'perPage', value: DEFAULTS.perPage });
  const currency = currentTenant()?.currency ?? 'USD';
  const sets = {
    locationIds: checks('Locations', 'locationIds', pairs(options.locations)),
    providerIds: checks('Providers', 'providerIds', pairs(options.providers)),
    itemCategories: checks('Item categories', 'itemCategories', pairs(options.categories)),
    // Coded values read as words ("Wallet pay"), as in the tables; the boxes' values stay the codes the API filters on.
    itemTypes: checks('Item types', 'itemTypes', options.types.data.map((row) => [row[`${cube}.itemType`], valueLabel('itemType', row[`${cube}.itemType`])])),
    paymentMediums: checks('Payment media', 'paymentMediums', options.mediums.map((g) => [g.groupKey, valueLabel('paymentMedium', g.groupKey)])),
  };
  // Filters held as chips, by LIST_KEYS name: drill-downs from dashboards bring names (providerNames, ...).
  let extra = {};
  const chips = h('ul', { className: 'chips', 'aria-label': 'More filters' });
  const chipRow = h('div', { className: 'row chips-row', hidden: true }, h('span', { className: 'hint' }, 'Also filtered by:'), chips);
  const elements = [
    h(
      'div',
      { className: 'row' },
      field('Time zone', timezone, { errorKey: 'timezone' }),
      field('From', startDate, { errorKey: 'startDate' }),
      field('To (inclusive)', endDate, { errorKey: 'endDate' }),
      field(`Min net per line (${currency})`, minNet, { errorKey: 'minNetCents' }),
      field(`Max net per line (${currency})`, maxNet, { errorKey: 'maxNetCents' }),
      field('Comment contains', comment, { errorKey: 'comment' }),
    ),
    h('div', { className: 'row checks-row' }, Object.values(sets)),
    chipRow,
    h('div', { className: 'row' }, field('Group by', groupBy), field('Sort lines by', sortBy), field('Direction', sortDirection), field('Lines per page', perPage)),
  ];

  function showChips() {
    const list = Object.entries(extra).flatMap(([key, values]) => values.map((value) => [key, value]));
    chipRow.hidden = list.length === 0;
    replace(
      chips,
      list.map(([key, value]) => {
        const text = `${CHIP_LABELS[key] ?? key}: ${valueLabel(CODED[key] ?? key, value)}`;
        const remove = () => {
          extra[key] = extra[key].filter((v) => v !== value);
          showChips();
          onChipRemoved();
        };
        return h('li', { className: 'chip' }, text, ' ', h('button', { type: 'button', className: 'link-button', 'aria-label': `Remove filter ${text}`, onClick: remove }, '✕'));
      }),
    );
  }

  /** Sets every field from `view` (readRevenueView's shape); what the form has no field or box for becomes a chip. */
  function fill(view) {
    // A zone the picker lacks (a browser without it, or a hand-edited link) is kept: the API says whether it knows it.
    if (view.timezone && ![...timezone.options].some((o) => o.value === view.timezone)) timezone.append(h('option', { value: view.timezone }, view.timezone));
    timezone.value = view.timezone || tenantZone;
    startDate.value = view.startDate ?? '';
    endDate.value = view.endDate ?? '';
    minNet.value = view.minNet ?? '';
    maxNet.value = view.maxNet ?? '';
    comment.value = view.comment ?? '';
    choose(groupBy, view.groupBy ?? DEFAULTS.groupBy, DEFAULTS.groupBy);
    choose(sortBy, view.sortBy ?? DEFAULTS.sortBy, DEFAULTS.sortBy);
    choose(sortDirection, view.sortDirection ?? DEFAULTS.sortDirection, DEFAULTS.sortDirection);
    choose(perPage, String(view.perPage ?? DEFAULTS.perPage), DEFAULTS.perPage);
    extra = {};
    for (const key of LIST_KEYS) {
      const wanted = view[key] ?? [];
      const boxes = sets[key] ? [...sets[key].querySelectorAll('input[type=checkbox]')] : [];
      for (const box of boxes) box.checked = wanted.includes(box.value);
      const unboxed = wanted.filter((value) => !boxes.some((box) => box.value === value));
      if (unboxed.length) extra[key] = unboxed;
    }
    showChips();
  }

  /** The form's filters, grouping, sort and lines per page as a view (no page or group opened: those are the explorer's). */
  function view() {
    const read = { timezone: timezone.value, startDate: startDate.value, endDate: endDate.value, minNet: minNet.value.trim(), maxNet: maxNet.value.trim(), comment: comment.value.trim() };
    for (const key of LIST_KEYS) {
      const chosen = sets[key] ? [...sets[key].querySelectorAll('input:checked')].map((box) => box.value) : [];
      const values = [...chosen, ...(extra[key] ?? [])];
      if (values.length) read[key] = values;
    }
    return { ...read, groupBy: groupBy.value, sortBy: sortBy.value, sortDirection: sortDirection.value, perPage: Number(perPage.value) };
  }
  return { elements, fill, view, id: uid('filters') };
}
