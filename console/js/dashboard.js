import { graphql } from './api.js';
import { draw } from './charts.js';
import { field, h, replace, select } from './dom.js';
import { locations, queryModel, RUN_QUERY, withLocation } from './queries.js';

const DASHBOARD = `query Dashboard($id: ID!) {
  dashboard(id: $id) { id name description locationId layout widgets { id name chartType query isArchived position { x y w h } } }
}`;

/** One dashboard: its active widgets at their grid cells, each drawn from its own query, and a location filter for all. */
export async function renderDashboard(view, id) {
  replace(view, h('h1', { tabindex: '-1' }, 'Dashboard'), h('p', { className: 'loading', role: 'status' }, 'Loading the dashboard…'));
  let dashboard, places, model;
  try {
    [{ dashboard }, places, model] = await Promise.all([graphql(DASHBOARD, { id }), locations(), queryModel()]);
  } catch (error) {
    replace(view, h('h1', { tabindex: '-1' }, 'Dashboard'), h('div', { className: 'error-box', role: 'alert' }, error.code === 'NOT_FOUND' ? 'This dashboard does not exist, or is not this tenant’s.' : error.message), h('p', {}, h('a', { href: '#/dashboards' }, 'Back to the dashboards')));
    return;
  }
  const columns = Number(dashboard.layout?.columns) > 0 ? Number(dashboard.layout.columns) : 12;
  const rowHeight = Number(dashboard.layout?.rowHeight) > 0 ? Number(dashboard.layout.rowHeight) : 80;
  const widgets = dashboard.widgets.filter((w) => !w.isArchived).sort((a, b) => a.position.y - b.position.y || a.position.x - b.position.x);
  const archived = dashboard.widgets.length - widgets.length;
  const location = select([['', 'All locations'], ...places.map((p) => [p.id, p.name])], { name: 'location', value: dashboard.locationId ?? '' });
  const grid = h('div', { className: 'grid' });
  grid.style.setProperty('--columns', String(columns));
  grid.style.setProperty('--row-height', `${rowHeight}px`);
  const cards = widgets.map((widget) => widgetCard(widget));
  replace(
    view,
    h('p', { className: 'crumbs' }, h('a', { href: '#/dashboards' }, 'Dashboards'), ' / '),
    h('h1', { tabindex: '-1' }, dashboard.name),
    dashboard.description ? h('p', {}, dashboard.description) : null,
    h(
      'div',
      { className: 'toolbar' },
      field('Location', location, { hint: 'Applies to every widget below' }),
      h('a', { href: `#/dashboards/${encodeURIComponent(dashboard.id)}/widgets/new`, className: 'button primary' }, 'Add a widget'),
    ),
    archived ? h('p', { className: 'hint' }, `${archived} archived widget${archived === 1 ? ' is' : 's are'} not shown.`) : null,
    widgets.length === 0 ? h('p', { className: 'empty' }, 'No widgets yet: add one.') : grid,
  );
  grid.append(...cards.map((c) => c.element));
  const drawAll = () => cards.forEach((card) => card.load(location.value));
  location.addEventListener('change', drawAll);
  drawAll();

  function widgetCard(widget) {
    const titleId = `widget-title-${widget.id}`;
    const body = h('div', { className: 'widget-body' });
    const element = h(
      'section',
      { className: 'widget card', 'aria-labelledby': titleId, dataset: { widgetId: widget.id, chartType: widget.chartType } },
      h('header', {}, h('h2', { id: titleId }, widget.name), h('a', { href: `#/widgets/${encodeURIComponent(widget.id)}/edit`, 'aria-label': `Edit ${widget.name}` }, 'Edit')),
      body,
    );
    const { x, y, w, h: height } = widget.position;
    element.style.gridColumn = `${Math.min(x, columns - 1) + 1} / span ${Math.min(w, columns)}`;
    element.style.gridRow = `${y + 1} / span ${height}`;
    async function load(locationId) {
      element.dataset.state = 'loading';
      body.setAttribute('aria-busy', 'true');
      replace(body, h('p', { className: 'loading' }, 'Loading…'));
      try {
        const { executeAnalyticsQuery: result } = await graphql(RUN_QUERY, { query: withLocation(widget.query, locationId, model) });
        draw(body, widget.chartType, result, widget.name);
        element.dataset.state = 'drawn';
      } catch (error) {
        element.dataset.state = 'error';
        replace(body, h('div', { className: 'error-box', role: 'alert' }, h('p', {}, `This widget could not be drawn: ${error.message}`), h('button', { type: 'button', onClick: () => load(location.value) }, 'Try again')));
      } finally {
        body.setAttribute('aria-busy', 'false');
      }
    }
    return { element, load };
  }
}
