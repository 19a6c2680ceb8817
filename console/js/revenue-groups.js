import { chartPng, draw } from './charts.js';
import { download } from './csv.js';
import { announce, h, replace } from './dom.js';
import { money, number } from './format.js';
import { valueLabel } from './labels.js';

// The explorer's groups: a table of each group's figures and a bar chart of net per group. Days are
// listed and drawn in date order, all of them, as a time series; other groupings by net, largest first.

const CHART_CAP = 20;
const DAY_KEY = 'revenue.createdDate.day';

// `groupBy` is a RevenueGroupBy as the graph spells it (`PAYMENT_MEDIUM`); group keys are the stored values (`wallet_pay`).

/** What a group is called on screen: the API's label, payment media in words, `(none)` for the group without a key. */
export function groupName(groupBy, group) {
  if (group.groupKey === null || group.groupKey === undefined) return '(none)';
  if (groupBy === 'PAYMENT_MEDIUM') return valueLabel('paymentMedium', group.groupKey);
  return group.groupLabel ?? group.groupKey;
}

/** The group summaries in the order shown: days by date (the API's order is by amount), others as the API sent them. */
export function orderGroups(groupBy, list) {
  if (groupBy !== 'CREATED_DATE') return list;
  return [...list].sort((a, b) => (a.groupKey ?? '').localeCompare(b.groupKey ?? ''));
}

const NET = { title: 'Net', shortTitle: 'Net', type: 'number', meta: { unit: 'cents' } };

/** The chart's answer in the query engine's shape: days as a day-grained time dimension, other groups as a string dimension with unique labels. */
function chartAnswer(groupBy, list) {
  if (groupBy === 'CREATED_DATE') {
    const data = list.map((g) => ({ [DAY_KEY]: `${g.groupKey}T00:00:00.000`, net: g.netCents }));
    const dateRange = list.length ? [list[0].groupKey, list[list.length - 1].groupKey] : undefined;
    return {
      data,
      query: { measures: ['net'], timeDimensions: [{ dimension: 'revenue.createdDate', granularity: 'day', dateRange }] },
      annotation: { measures: { net: NET }, dimensions: {}, timeDimensions: { [DAY_KEY]: { title: 'Day', shortTitle: 'Day', type: 'time', granularity: { name: 'day', title: 'day', interval: '1 day' } } } },
      keyOf: (members) => (typeof members[DAY_KEY] === 'string' ? members[DAY_KEY].slice(0, 10) : undefined),
    };
  }
  // A bar stands for its label: two groups of one name (two providers called alike) get told apart by a number.
  const keys = new Map();
  const data = list.slice(0, CHART_CAP).map((g) => {
    let label = groupName(groupBy, g);
    for (let n = 2; keys.has(label); n += 1) label = `${groupName(groupBy, g)} (${n})`;
    keys.set(label, g.groupKey ?? '');
    return { group: label, net: g.netCents };
  });
  return {
    data,
    annotation: { measures: { net: NET }, dimensions: { group: { title: 'Group', shortTitle: 'Group', type: 'string' } }, timeDimensions: {} },
    keyOf: (members) => keys.get(members.group),
  };
}

/**
 * Fills `section` with the groups of `list` grouped by `groupBy`: the chart (a click on a bar opens
 * that group), a PNG download of it, and the table with a "Lines of ..." button per group.
 * `onOpen(groupKey)` opens a group ('' for the group without a key).
 */
export function showGroups(section, { list, groupBy, groupByLabel, openKey, onOpen }) {
  const ordered = orderGroups(groupBy, list);
  const chart = h('div', { className: 'group-chart' });
  const rows = ordered.map((g) => {
    const name = groupName(groupBy, g);
    return h(
      'tr',
      { 'aria-current': openKey === (g.groupKey ?? '') ? 'true' : null },
      h('th', { scope: 'row' }, name),
      h('td', { className: 'num' }, number(g.count)),
      h('td', { className: 'num' }, money(g.grossCents)),
      h('td', { className: 'num' }, money(g.discountCents)),
      h('td', { className: 'num' }, money(g.netCents)),
      h('td', { className: 'num' }, money(g.averageNetCents)),
      h('td', {}, h('button', { type: 'button', className: 'link-button', onClick: () => onOpen(g.groupKey ?? '') }, `Lines of ${name}`)),
    );
  });
  const answer = chartAnswer(groupBy, ordered);
  const capped = groupBy !== 'CREATED_DATE' && ordered.length > CHART_CAP;
  const caption = groupBy === 'CREATED_DATE' ? 'Net amount per day' : capped ? `Net amount per group (the ${CHART_CAP} largest of ${ordered.length})` : 'Net amount per group';
  const png = h('button', { type: 'button', disabled: ordered.length === 0, onClick: () => void savePng() }, 'Download chart (PNG)');
  replace(
    section,
    h('h2', { id: 'groups-title' }, `Groups by ${groupByLabel}`),
    h('div', { className: 'toolbar' }, png),
    chart,
    h('div', { className: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Groups' }, h('table', {}, h('thead', {}, h('tr', {}, [groupByLabel, 'Lines', 'Gross', 'Discounts', 'Net', 'Average net', ''].map((t, i) => h('th', { scope: 'col', className: i > 0 && i < 6 ? 'num' : '' }, t)))), h('tbody', {}, rows))),
  );
  // The same chart code as the widgets, fed the group summaries in the query engine's answer shape; a bar opens its group.
  draw(chart, 'BAR', answer, caption, {
    onPick: (members) => {
      const key = answer.keyOf(members);
      if (key !== undefined) onOpen(key);
    },
  });

  async function savePng() {
    const blob = await chartPng(chart).catch(() => null);
    if (!blob) return void announce('The chart could not be made into a PNG');
    // Named as the link spells the grouping: `revenue-by-payment_medium.png`.
    download(`revenue-by-${groupBy.toLowerCase()}.png`, blob);
  }
}
