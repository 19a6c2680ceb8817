import { pageOf, pageWindow } from './pages.js';
import { currentSession, currentTenant, graphql } from './api.js';
import { LINE_COLUMNS } from './csv.js';
import { h, replace } from './dom.js';
import { money, number } from './format.js';
import { valueLabel } from './labels.js';
import { queryModel } from './queries.js';
import { exportControl } from './revenue-export.js';
import { filterVariables, GROUP_BY, revenueFilters } from './revenue-filters.js';
import { groupName, showGroups } from './revenue-groups.js';
import { readRevenueView, revenueHref } from './revenue-link.js';

const FILTER_ARGS = 'timezone: $timezone, startDate: $startDate, endDate: $endDate, locationIds: $locationIds, locationNames: $locationNames, providerIds: $providerIds, providerNames: $providerNames, patientIds: $patientIds, patientNames: $patientNames, itemCategories: $itemCategories, itemTypes: $itemTypes, itemNames: $itemNames, paymentMediums: $paymentMediums, comment: $comment';
// Every amount bound on the graph is SafeInt cents: one variable each.
const EXPLORE = `query Revenue($timezone: String!, $startDate: String, $endDate: String, $locationIds: [ID!], $locationNames: [String!], $providerIds: [ID!], $providerNames: [String!], $patientIds: [ID!], $patientNames: [String!],
  $itemCategories: [String!], $itemTypes: [RevenueItemType!], $itemNames: [String!], $paymentMediums: [PaymentMedium!], $comment: String,
  $minNet: SafeInt, $maxNet: SafeInt, $grouped: Boolean!, $groupBy: RevenueGroupBy, $groupByOrAny: RevenueGroupBy!, $groupKey: String,
  $groupSort: RevenueGroupSortField!, $groupDirection: SortDirection!, $sortBy: RevenueBreakdownSortField!, $sortDirection: SortDirection!, $first: Int!, $after: String) {
  summary: revenueBreakdownSummary(${FILTER_ARGS}, minNetCents: $minNet, maxNetCents: $maxNet) { count grossCents discountCents netCents averageNetCents chargeItemCount soldPackageCount firstLineAt lastLineAt }
  groups: revenueBreakdownGroupSummaries(${FILTER_ARGS}, minNetCents: $minNet, maxNetCents: $maxNet, groupBy: $groupByOrAny, sortBy: $groupSort, sortDirection: $groupDirection) @include(if: $grouped) { groupKey groupLabel count grossCents discountCents netCents averageNetCents }
  lines: revenueBreakdown(${FILTER_ARGS}, minNetCents: $minNet, maxNetCents: $maxNet, groupBy: $groupBy, groupKey: $groupKey, sortBy: $sortBy, sortDirection: $sortDirection, first: $first, after: $after) {
    totalCount nodes { ${LINE_COLUMNS.join(' ')} }
  }
}`;
const COLUMNS = [['localDate', 'Date'], ['locationName', 'Location'], ['providerName', 'Provider'], ['patientName', 'Patient'], ['itemCategory', 'Category'], ['itemType', 'Type'], ['itemName', 'Item'], ['paymentMedium', 'Paid by'], ['grossCents', 'Gross'], ['discountCents', 'Discount'], ['netCents', 'Net']];
const isAmount = (key) => key.endsWith('Cents');

// The explorer drawn last, kept while its page stays: a navigation between its own views (paging,
// a group opened, back and forward) reuses its form instead of asking the API for the pickers again.
let explorer = null;
let building = 0;

/**
 * The product-sales breakdown at `#/revenue?<view>` (revenue-link.js): the contract's filters, summary
 * figures, optional grouping, paged lines and a CSV of all of them. Every change is a navigation to
 * the view's link, so a link, a reload and back/forward show the same view.
 */
export async function renderRevenue(view, params = new URLSearchParams()) {
  const wanted = readRevenueView(params);
  if (explorer && explorer.view === view && view.contains(explorer.root) && explorer.session === currentSession()) return explorer.show(wanted);
  const built = ++building;
  replace(view, h('h1', { tabindex: '-1' }, 'Revenue explorer'), h('p', { className: 'loading', role: 'status' }, 'Loading…'));
  let created;
  try {
    created = await createExplorer(view);
  } catch (error) {
    if (built === building && location.hash.startsWith('#/revenue')) replace(view, h('h1', { tabindex: '-1' }, 'Revenue explorer'), h('div', { className: 'error-box', role: 'alert' }, error.message));
    return;
  }
  // A later navigation started its own explorer meanwhile, or left the explorer: that one shows.
  if (built !== building || !location.hash.startsWith('#/revenue')) return;
  explorer = created;
  replace(view, h('h1', { tabindex: '-1' }, 'Revenue explorer'), explorer.root, ...explorer.sections);
  return explorer.show(wanted);
}

/** Opens the view's link: the router draws it (on hashchange), or, when it is already the address, it is drawn again here. */
function go(next) {
  const href = revenueHref(next);
  if (location.hash === href) void explorer?.show(readRevenueView(new URLSearchParams(href.split('?')[1] ?? '')));
  else location.hash = href;
}

async function createExplorer(view) {
  const session = currentSession();
  const filters = await revenueFilters(await queryModel(), { onChipRemoved: () => form.requestSubmit() });
  const state = { current: {}, asked: 0 };
  const problems = h('div', { className: 'error-box', role: 'alert', hidden: true });
  const summary = h('section', { 'aria-labelledby': 'summary-title' }, h('h2', { id: 'summary-title' }, 'Summary'), h('div', { className: 'figures' }));
  const groups = h('section', { 'aria-labelledby': 'groups-title', hidden: true });
  const lines = h('section', { 'aria-labelledby': 'lines-title', 'aria-live': 'polite' });
  // Applying the filters opens their view at its first page, with no group open.
  const form = h(
    'form',
    { className: 'revenue-filters card', novalidate: true, 'aria-label': 'Revenue filters', onSubmit: (event) => (event.preventDefault(), go({ ...filters.view(), page: 1 })) },
    filters.elements,
    h('div', { className: 'actions' }, h('button', { type: 'submit', className: 'primary' }, 'Apply filters')),
  );

  /** Shows `wanted` (readRevenueView's shape): the form filled from it, then the API's answer for it. */
  async function show(wanted) {
    filters.fill(wanted);
    const shape = filters.view();
    const groupKey = shape.groupBy && typeof wanted.groupKey === 'string' ? wanted.groupKey : undefined;
    // The view as shown, in its canonical form: paging and opening groups step from it.
    const current = (state.current = { ...shape, groupKey, page: wanted.page ?? 1 });
    // Only the latest query's answer is shown: an earlier one that arrives late must not cover it.
    const asked = ++state.asked;
    lines.setAttribute('aria-busy', 'true');
    problems.hidden = true;
    for (const slot of form.querySelectorAll('.field-error')) slot.hidden = true;
    const { minNetCents, maxNetCents, ...filter } = filterVariables(current);
    const byDay = current.groupBy === 'CREATED_DATE';
    const lineVariables = { ...filter, groupBy: groupKey !== undefined ? current.groupBy : null, groupKey: groupKey ?? null, sortBy: current.sortBy, sortDirection: current.sortDirection };
    try {
      const data = await graphql(EXPLORE, {
        ...lineVariables,
        minNet: minNetCents,
        maxNet: maxNetCents,
        grouped: Boolean(current.groupBy),
        groupByOrAny: current.groupBy || 'LOCATION',
        // Days in date order (their label is the date); other groups by net, largest first.
        groupSort: byDay ? 'GROUP_LABEL' : 'NET_AMOUNT',
        groupDirection: byDay ? 'ASC' : 'DESC',
        ...pageWindow(current.page, current.perPage),
      });
      if (asked !== state.asked) return;
      showSummary(data.summary);
      const opened = groupKey === undefined ? null : openedName(current.groupBy, groupKey, data.groups);
      if (current.groupBy && data.groups) {
        const label = GROUP_BY.find(([value]) => value === current.groupBy)?.[1] ?? current.groupBy;
        groups.hidden = false;
        showGroups(groups, { list: data.groups, groupBy: current.groupBy, groupByLabel: label, openKey: groupKey, onOpen: (key) => go({ ...state.current, groupKey: key, page: 1 }) });
      } else {
        groups.hidden = true;
        replace(groups);
      }
      showLines(pageOf(data.lines, current.page, current.perPage), opened, { ...lineVariables, minNetCents, maxNetCents });
    } catch (error) {
      if (asked !== state.asked) return;
      clearResults();
      showProblems(error);
    } finally {
      if (asked === state.asked) lines.setAttribute('aria-busy', 'false');
    }
  }

  /** The opened group's name: from the groups listed, else from its key (a day, a medium). */
  function openedName(groupBy, key, list) {
    const found = list?.find((g) => (g.groupKey ?? '') === key);
    return groupName(groupBy, found ?? { groupKey: key === '' ? null : key, groupLabel: null });
  }

  /** Removes the previous query's figures, groups and lines: left on screen beside a refusal they would read as this query's answer. */
  function clearResults() {
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
      figure('Gross', money(s.grossCents)),
      figure('Discounts', money(s.discountCents)),
      figure('Net', money(s.netCents)),
      figure('Average net per line', money(s.averageNetCents)),
      figure('Charge items / sold packages', `${number(s.chargeItemCount)} / ${number(s.soldPackageCount)}`),
      figure('First – last sale', s.firstLineAt ? `${s.firstLineAt.slice(0, 10)} – ${s.lastLineAt.slice(0, 10)}` : '—'),
    );
  }

  function showLines(page, opened, exportVariables) {
    const heading = opened !== null ? `Lines of ${opened}` : 'Lines';
    const cellText = (key, value) => (isAmount(key) ? money(value) : value === null || value === undefined ? '—' : valueLabel(key, value));
    const pager = h(
      'nav',
      { className: 'pager', 'aria-label': 'Pages of lines' },
      h('button', { type: 'button', disabled: page.page <= 1, onClick: () => go({ ...state.current, page: page.page - 1 }) }, '← Previous'),
      h('span', {}, `Page ${page.page} of ${Math.max(page.pages, 1)} · ${number(page.total)} lines`),
      h('button', { type: 'button', disabled: page.page >= page.pages, onClick: () => go({ ...state.current, page: page.page + 1 }) }, 'Next →'),
    );
    replace(
      lines,
      h('h2', { id: 'lines-title' }, heading),
      h(
        'div',
        { className: 'toolbar' },
        opened !== null ? h('button', { type: 'button', onClick: () => go({ ...state.current, groupKey: undefined, page: 1 }) }, 'All lines') : null,
        exportControl({ variables: exportVariables, total: page.total, currency: currentTenant()?.currency ?? 'USD' }),
      ),
      page.items.length === 0 && page.total > 0
        ? // A link to a page past the last (the data shrank since it was made): say so, and offer the last page.
          h('p', { className: 'empty' }, `Page ${page.page} is past the last one. `, h('button', { type: 'button', className: 'link-button', onClick: () => go({ ...state.current, page: page.pages }) }, `Go to page ${page.pages}`))
        : page.items.length === 0
        ? h('p', { className: 'empty' }, 'No lines match these filters.')
        : h('div', { className: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': heading }, h('table', { className: 'lines' }, h('thead', {}, h('tr', {}, COLUMNS.map(([key, label]) => h('th', { scope: 'col', className: isAmount(key) ? 'num' : '' }, label)))), h('tbody', {}, page.items.map((line) => h('tr', {}, COLUMNS.map(([key]) => h('td', { className: isAmount(key) ? 'num' : '' }, cellText(key, line[key])))))))),
      pager,
    );
  }

  return { view, session, root: form, sections: [problems, summary, groups, lines], show };
}
