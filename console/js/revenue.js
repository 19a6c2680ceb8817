import { graphql } from './api.js';
import { draw } from './charts.js';
import { download, LINE_COLUMNS, toCsv } from './csv.js';
import { announce, h, replace } from './dom.js';
import { money, number } from './format.js';
import { queryModel } from './queries.js';
import { revenueFilters } from './revenue-filters.js';

const FILTER_ARGS = 'timezone: $timezone, startDate: $startDate, endDate: $endDate, locationIds: $locationIds, providerIds: $providerIds, itemCategories: $itemCategories, itemTypes: $itemTypes, paymentMediums: $paymentMediums, comment: $comment';
// Group summaries type the amounts Int (the contract's types), the other three Float: two variables each.
const EXPLORE = `query Revenue($timezone: String!, $startDate: String, $endDate: String, $locationIds: [String!], $providerIds: [String!], $itemCategories: [String!], $itemTypes: [String!], $paymentMediums: [String!], $comment: String,
  $minNet: Float, $maxNet: Float, $minNetInt: Int, $maxNetInt: Int, $grouped: Boolean!, $groupBy: RevenueGroupBy, $groupByOrAny: RevenueGroupBy!, $groupKey: String,
  $sortBy: RevenueBreakdownSortField!, $sortDirection: SortDirection!, $page: Int!, $perPage: Int!) {
  summary: revenueBreakdownSummary(${FILTER_ARGS}, minNetAmount: $minNet, maxNetAmount: $maxNet) { count grossAmount discountAmount netAmount averageNetAmount chargeItemCount soldPackageCount firstDate lastDate }
  groups: revenueBreakdownGroupSummaries(${FILTER_ARGS}, minNetAmount: $minNetInt, maxNetAmount: $maxNetInt, groupBy: $groupByOrAny, sortBy: net_amount) @include(if: $grouped) { groupKey groupLabel count grossAmount discountAmount netAmount averageNetAmount }
  lines: revenueBreakdown(${FILTER_ARGS}, minNetAmount: $minNet, maxNetAmount: $maxNet, groupBy: $groupBy, groupKey: $groupKey, sortBy: $sortBy, sortDirection: $sortDirection, page: $page, perPage: $perPage) {
    total page pages perPage items { ${LINE_COLUMNS.join(' ')} }
  }
}`;

/** The product-sales breakdown: the contract's filters, summary figures, optional grouping, paged lines and a CSV of the lines shown. */
export async function renderRevenue(view) {
  replace(view, h('h1', { tabindex: '-1' }, 'Revenue explorer'), h('p', { className: 'loading', role: 'status' }, 'Loading…'));
  let filters;
  try {
    filters = await revenueFilters(await queryModel());
  } catch (error) {
    replace(view, h('h1', { tabindex: '-1' }, 'Revenue explorer'), h('div', { className: 'error-box', role: 'alert' }, error.message));
    return;
  }
  const state = { page: 1, groupKey: null, groupLabel: null, lines: null, asked: 0 };
  const problems = h('div', { className: 'error-box', role: 'alert', hidden: true });
  const summary = h('section', { 'aria-labelledby': 'summary-title' }, h('h2', { id: 'summary-title' }, 'Summary'), h('div', { className: 'figures' }));
  const groups = h('section', { 'aria-labelledby': 'groups-title', hidden: true });
  const lines = h('section', { 'aria-labelledby': 'lines-title', 'aria-live': 'polite' });
  const form = h(
    'form',
    { className: 'revenue-filters card', novalidate: true, 'aria-label': 'Revenue filters', onSubmit: (event) => (event.preventDefault(), (state.page = 1), (state.groupKey = null), void load()) },
    filters.elements,
    h('div', { className: 'actions' }, h('button', { type: 'submit', className: 'primary' }, 'Apply filters')),
  );
  replace(view, h('h1', { tabindex: '-1' }, 'Revenue explorer'), form, problems, summary, groups, lines);
  await load();

  async function load() {
    const filter = filters.read();
    const shape = filters.view();
    if (!shape.groupBy) state.groupKey = null;
    // Only the latest query's answer is shown: an earlier one that arrives late must not cover it.
    const asked = ++state.asked;
    lines.setAttribute('aria-busy', 'true');
    problems.hidden = true;
    for (const slot of form.querySelectorAll('.field-error')) slot.hidden = true;
    try {
      const data = await graphql(EXPLORE, {
        ...filter,
        minNet: filter.minNetAmount,
        maxNet: filter.maxNetAmount,
        minNetInt: filter.minNetAmount,
        maxNetInt: filter.maxNetAmount,
        grouped: Boolean(shape.groupBy),
        groupBy: state.groupKey !== null ? shape.groupBy : null,
        groupByOrAny: shape.groupBy ?? 'location',
        groupKey: state.groupKey,
        sortBy: shape.sortBy,
        sortDirection: shape.sortDirection,
        page: state.page,
        perPage: shape.perPage,
      });
      if (asked !== state.asked) return;
      showSummary(data.summary);
      showGroups(data.groups, shape.groupBy);
      showLines(data.lines);
    } catch (error) {
      if (asked !== state.asked) return;
      clearResults();
      showProblems(error);
    } finally {
      if (asked === state.asked) lines.setAttribute('aria-busy', 'false');
    }
  }

  /** Removes the previous query's figures, groups and lines: left on screen beside a refusal they would read as this query's answer. */
  function clearResults() {
    state.lines = null;
    replace(summary.querySelector('.figures'), h('p', { className: 'empty' }, 'No figures: this query was refused.'));
    groups.hidden = true;
    replace(groups);
    replace(lines, h('h2', { id: 'lines-title' }, 'Lines'), h('p', { className: 'empty' }, 'No lines: this query was refused.'));
  }

  function showProblems(error) {
    const unplaced = [];
    for (const issue of error.validation ?? []) {
      const slot = form.querySelector(`[data-error-key="${issue.loc?.[issue.loc.length - 1]}"] > .field-error`);
      if (slot) {
        slot.textContent = issue.msg;
        slot.hidden = false;
      } else unplaced.push(issue.msg);
    }
    if (!error.validation?.length) unplaced.push(error.message);
    replace(problems, unplaced.join(' '));
    problems.hidden = unplaced.length === 0;
  }

  function showSummary(s) {
    const figure = (label, value) => h('div', { className: 'figure card' }, h('p', { className: 'kpi-value' }, value), h('p', { className: 'kpi-label' }, label));
    replace(
      summary.querySelector('.figures'),
      figure('Lines', number(s.count)),
      figure('Gross', money(s.grossAmount)),
      figure('Discounts', money(s.discountAmount)),
      figure('Net', money(s.netAmount)),
      figure('Average net per line', money(s.averageNetAmount)),
      figure('Charge items / sold packages', `${number(s.chargeItemCount)} / ${number(s.soldPackageCount)}`),
      figure('First – last sale', s.firstDate ? `${s.firstDate.slice(0, 10)} – ${s.lastDate.slice(0, 10)}` : '—'),
    );
  }

  function showGroups(list, groupBy) {
    groups.hidden = !groupBy;
    if (!groupBy || !list) return void replace(groups);
    const chart = h('div', { className: 'group-chart' });
    const rows = list.map((g) =>
      h(
        'tr',
        { 'aria-current': state.groupKey === (g.groupKey ?? '') ? 'true' : null },
        h('th', { scope: 'row' }, g.groupLabel ?? '(none)'),
        h('td', { className: 'num' }, number(g.count)),
        h('td', { className: 'num' }, money(g.grossAmount)),
        h('td', { className: 'num' }, money(g.discountAmount)),
        h('td', { className: 'num' }, money(g.netAmount)),
        h('td', { className: 'num' }, money(g.averageNetAmount)),
        h('td', {}, h('button', { type: 'button', className: 'link-button', onClick: () => ((state.groupKey = g.groupKey ?? ''), (state.groupLabel = g.groupLabel ?? '(none)'), (state.page = 1), void load()) }, `Lines of ${g.groupLabel ?? '(none)'}`)),
      ),
    );
    replace(
      groups,
      h('h2', { id: 'groups-title' }, 'Groups'),
      chart,
      h('div', { className: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Groups' }, h('table', {}, h('thead', {}, h('tr', {}, ['Group', 'Lines', 'Gross', 'Discounts', 'Net', 'Average net', ''].map((t, i) => h('th', { scope: 'col', className: i > 0 && i < 6 ? 'num' : '' }, t)))), h('tbody', {}, rows))),
    );
    // The same chart code as the widgets, fed the group summaries in the query engine's answer shape.
    const net = { title: 'Net', shortTitle: 'Net', type: 'number', meta: { unit: 'cents' } };
    draw(chart, 'bar', { data: list.slice(0, 20).map((g) => ({ group: g.groupLabel ?? '(none)', net: g.netAmount })), annotation: { measures: { net }, dimensions: { group: { title: 'Group', shortTitle: 'Group', type: 'string' } }, timeDimensions: {} } }, 'Net amount per group');
  }

  function showLines(page) {
    state.lines = page;
    const heading = state.groupKey !== null ? `Lines of ${state.groupLabel}` : 'Lines';
    const columns = [['localDate', 'Date'], ['locationName', 'Location'], ['providerName', 'Provider'], ['patientName', 'Patient'], ['itemCategory', 'Category'], ['itemType', 'Type'], ['itemName', 'Item'], ['paymentMedium', 'Paid by'], ['grossAmount', 'Gross'], ['discountAmount', 'Discount'], ['netAmount', 'Net']];
    const amount = (key) => key.endsWith('Amount');
    const pager = h(
      'nav',
      { className: 'pager', 'aria-label': 'Pages of lines' },
      h('button', { type: 'button', disabled: page.page <= 1, onClick: () => ((state.page -= 1), void load()) }, '← Previous'),
      h('span', {}, `Page ${page.page} of ${Math.max(page.pages, 1)} · ${number(page.total)} lines`),
      h('button', { type: 'button', disabled: page.page >= page.pages, onClick: () => ((state.page += 1), void load()) }, 'Next →'),
    );
    replace(
      lines,
      h('h2', { id: 'lines-title' }, heading),
      h(
        'div',
        { className: 'toolbar' },
        state.groupKey !== null ? h('button', { type: 'button', onClick: () => ((state.groupKey = null), (state.page = 1), void load()) }, 'All lines') : null,
        h('button', { type: 'button', disabled: page.items.length === 0, onClick: exportCsv }, `Export CSV (${page.items.length} lines shown)`),
      ),
      page.items.length === 0
        ? h('p', { className: 'empty' }, 'No lines match these filters.')
        : h('div', { className: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': heading }, h('table', { className: 'lines' }, h('thead', {}, h('tr', {}, columns.map(([key, label]) => h('th', { scope: 'col', className: amount(key) ? 'num' : '' }, label)))), h('tbody', {}, page.items.map((line) => h('tr', {}, columns.map(([key]) => h('td', { className: amount(key) ? 'num' : '' }, amount(key) ? money(line[key]) : line[key] ?? '—'))))))),
      pager,
    );
  }

  function exportCsv() {
    const page = state.lines;
    download(`revenue-lines-page-${page.page}.csv`, toCsv(LINE_COLUMNS, page.items));
    announce(`Exported ${page.items.length} lines`);
  }
}
