import { currentTenant, graphql } from './api.js';
import { chartPng, draw } from './charts.js';
import { download } from './csv.js';
import { dashboardHeading } from './dashboard-edit.js';
import { RANGE_PRESETS, readRange, withRange, writeRange } from './date-range.js';
import { announce, field, h, replace, select } from './dom.js';
import { drillDownView } from './drill-down.js';
import { locations, queryModel, RUN_QUERY, withLocation } from './queries.js';
import { revenueHref } from './revenue-link.js';
import { deleteWithUndo, isPendingDelete } from './undo.js';

const DASHBOARD = `query Dashboard($id: ID!) {
  dashboard(id: $id) { id name description locationId layout widgets { id name chartType query isArchived position { x y w h } } }
}`;
const DELETE_WIDGET = `mutation DeleteWidget($id: ID!) { deleteWidget(id: $id) }`;
/** Auto-refresh choices, in minutes ('' is off); `refresh` in the URL. */
const REFRESH = [['', 'Off'], ['1', 'Every minute'], ['5', 'Every 5 minutes'], ['15', 'Every 15 minutes']];
/** Chart types (the graph's ChartType names) drawn by ECharts: a mark can be clicked, and the chart saved as a PNG. */
const PICKABLE = new Set(['BAR', 'LINE', 'AREA', 'PIE']);

/**
 * One dashboard: its active widgets at their grid cells, each drawn from its own query, with a
 * location filter, a date range and auto-refresh for all. Those three live in the URL's query
 * (`#/dashboards/<id>?location=…&range=last+30+days&refresh=5`), so the link reproduces the view.
 */
export async function renderDashboard(view, id, params = new URLSearchParams()) {
  const loading = h('p', { className: 'loading', role: 'status' }, 'Loading the dashboard…');
  replace(view, h('h1', { tabindex: '-1' }, 'Dashboard'), loading);
  let dashboard, places, model;
  try {
    if (isPendingDelete(id)) throw Object.assign(new Error(), { code: 'NOT_FOUND' });
    [{ dashboard }, places, model] = await Promise.all([graphql(DASHBOARD, { id }), locations(), queryModel()]);
  } catch (error) {
    if (!loading.isConnected) return;
    replace(view, h('h1', { tabindex: '-1' }, 'Dashboard'), h('div', { className: 'error-box', role: 'alert' }, error.code === 'NOT_FOUND' ? 'This dashboard does not exist, or is not this tenant’s.' : error.message), h('p', {}, h('a', { href: '#/dashboards' }, 'Back to the dashboards')));
    return;
  }
  // Another view was drawn while this one loaded (the person moved on): it stays.
  if (!loading.isConnected) return;
  const columns = Number(dashboard.layout?.columns) > 0 ? Number(dashboard.layout.columns) : 12;
  const rowHeight = Number(dashboard.layout?.rowHeight) > 0 ? Number(dashboard.layout.rowHeight) : 80;
  const widgets = dashboard.widgets.filter((w) => !w.isArchived && !isPendingDelete(w.id)).sort((a, b) => a.position.y - b.position.y || a.position.x - b.position.x);
  const archived = dashboard.widgets.filter((w) => w.isArchived).length;

  // The controls start from the URL: absent `location` is the dashboard's own, `location=` all of them.
  const location = select([['', 'All locations'], ...places.map((p) => [p.id, p.name])], { name: 'location', value: params.has('location') ? params.get('location') : dashboard.locationId ?? '' });
  let range = readRange(params);
  const rangePicker = select(RANGE_PRESETS, { name: 'range', value: range?.preset ?? '' });
  const from = h('input', { type: 'date', name: 'from', value: range?.from ?? '' });
  const to = h('input', { type: 'date', name: 'to', value: range?.to ?? '' });
  const custom = h('div', { className: 'toolbar', hidden: rangePicker.value !== 'custom' }, field('From', from), field('To (inclusive)', to));
  const refresh = select(REFRESH, { name: 'refresh', value: REFRESH.some(([v]) => v === params.get('refresh')) ? params.get('refresh') : '' });

  const grid = h('div', { className: 'grid' });
  grid.style.setProperty('--columns', String(columns));
  grid.style.setProperty('--row-height', `${rowHeight}px`);
  const cards = widgets.map((widget) => widgetCard(widget));
  const heading = dashboardHeading(dashboard);
  replace(
    view,
    h('p', { className: 'crumbs' }, h('a', { href: '#/dashboards' }, 'Dashboards'), ' / '),
    heading.elements,
    h(
      'div',
      { className: 'toolbar' },
      field('Location', location, { hint: 'Applies to every widget below' }),
      field('Date range', rangePicker, { hint: 'Replaces each widget’s own range while you look' }),
      field('Auto-refresh', refresh),
      h('a', { href: `#/dashboards/${encodeURIComponent(dashboard.id)}/widgets/new`, className: 'button primary' }, 'Add a widget'),
    ),
    custom,
    archived ? h('p', { className: 'hint' }, `${archived} archived widget${archived === 1 ? ' is' : 's are'} not shown.`) : null,
    widgets.length === 0 ? h('p', { className: 'empty' }, 'No widgets yet: add one.') : grid,
  );
  grid.append(...cards.map((c) => c.element));
  const drawAll = () => cards.forEach((card) => card.load());

  /** The URL holds the controls' state; replaceState changes it without a new view (no hashchange). */
  function remember() {
    const next = new URLSearchParams();
    if (location.value !== (dashboard.locationId ?? '')) next.set('location', location.value);
    writeRange(next, range);
    if (refresh.value) next.set('refresh', refresh.value);
    const query = next.toString();
    history.replaceState(history.state, '', `#/dashboards/${encodeURIComponent(dashboard.id)}${query ? `?${query}` : ''}`);
  }
  location.addEventListener('change', () => (remember(), drawAll()));
  const onRange = () => {
    custom.hidden = rangePicker.value !== 'custom';
    if (rangePicker.value === 'custom') {
      // A custom range applies once both ends are there, in order.
      if (!from.value || !to.value || from.value > to.value) return;
      range = { preset: 'custom', from: from.value, to: to.value };
    } else range = rangePicker.value ? { preset: rangePicker.value } : null;
    remember();
    drawAll();
  };
  for (const control of [rangePicker, from, to]) control.addEventListener('change', onRange);

  // Auto-refresh redraws while this view is on show; a view drawn in its place ends it.
  let timer = null;
  const schedule = () => {
    clearInterval(timer);
    if (refresh.value) timer = setInterval(() => (grid.isConnected ? drawAll() : clearInterval(timer)), Number(refresh.value) * 60_000);
  };
  refresh.addEventListener('change', () => (remember(), schedule()));
  schedule();
  drawAll();

  function widgetCard(widget) {
    const titleId = `widget-title-${widget.id}`;
    const zone = widget.query.timezone ?? currentTenant()?.timezone ?? 'UTC';
    const body = h('div', { className: 'widget-body' });
    const remove = h('button', { type: 'button', className: 'link-button', 'aria-label': `Delete ${widget.name}`, onClick: onDelete }, 'Delete');
    // Charts drawn by ECharts can be saved as pictures; tables and KPIs are text already.
    const png = PICKABLE.has(widget.chartType) ? h('button', { type: 'button', className: 'link-button', 'aria-label': `Download ${widget.name} as PNG`, onClick: () => void savePng() }, 'PNG') : null;
    const element = h(
      'section',
      { className: 'widget card', 'aria-labelledby': titleId, dataset: { widgetId: widget.id, chartType: widget.chartType } },
      h('header', {}, h('h2', { id: titleId }, widget.name), h('span', { className: 'actions' }, h('a', { href: `#/widgets/${encodeURIComponent(widget.id)}/edit`, 'aria-label': `Edit ${widget.name}` }, 'Edit'), png, remove)),
      body,
      h('p', { className: 'hint widget-zone' }, `Times in ${zone}`),
    );
    const { x, y, w, h: height } = widget.position;
    element.style.gridColumn = `${Math.min(x, columns - 1) + 1} / span ${Math.min(w, columns)}`;
    element.style.gridRow = `${y + 1} / span ${height}`;
    let run = 0;

    async function load() {
      const mine = ++run;
      // The dashboard's range and location, in the widget's own time zone.
      const query = withLocation(withRange(widget.query, range, zone), location.value, model);
      element.dataset.state = 'loading';
      body.setAttribute('aria-busy', 'true');
      replace(body, h('p', { className: 'loading' }, 'Loading…'));
      try {
        const { executeAnalyticsQuery: result } = await graphql(RUN_QUERY, { query });
        if (mine !== run) return;
        // The query as the engine ran it: its relative range ("this quarter") resolved to dates, in the widget's zone.
        const onPick = PICKABLE.has(widget.chartType) ? (members) => drillDown(members, result.query ?? query) : undefined;
        draw(body, widget.chartType, result, widget.name, { onPick });
        element.dataset.state = 'drawn';
      } catch (error) {
        if (mine !== run) return;
        element.dataset.state = 'error';
        replace(body, h('div', { className: 'error-box', role: 'alert' }, h('p', {}, `This widget could not be drawn: ${error.message}`), h('button', { type: 'button', onClick: load }, 'Try again')));
      } finally {
        if (mine === run) body.setAttribute('aria-busy', 'false');
      }
    }

    /** Saves the widget's chart as a PNG file named after the widget. */
    async function savePng() {
      const blob = await chartPng(body).catch(() => null);
      if (!blob) return void announce(`${widget.name} has no chart to save yet`);
      download(`${widget.name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'widget'}.png`, blob);
    }

    /** Opens the revenue explorer on the lines behind a clicked mark; asks first if part of the widget cannot go along. */
    function drillDown(members, query) {
      const { view: explorer, unmapped } = drillDownView(members, query, zone);
      if (unmapped.length && !window.confirm(`The revenue explorer cannot filter by ${unmapped.join('; ')}. Open it without ${unmapped.length === 1 ? 'that' : 'those'}?`)) return;
      window.location.hash = revenueHref(explorer);
    }

    function onDelete() {
      element.hidden = true;
      // Focus was on the button just hidden: it goes to Undo, and back to the widget if undone.
      const undo = deleteWithUndo({
        id: widget.id,
        label: `Widget “${widget.name}” deleted.`,
        mutation: DELETE_WIDGET,
        // Nothing was deleted yet: the widget shows again where it was (if this dashboard is still on show).
        onUndo: () => {
          element.hidden = false;
          if (element.isConnected) void load(), remove.focus();
        },
        onFailed: (error) => window.alert(`The widget “${widget.name}” could not be deleted: ${error.message}`),
      });
      undo?.focus();
    }
    return { element, load };
  }
}
