import { currentTenant, graphql } from './api.js';
import { CHART_TYPES, draw } from './charts.js';
import { announce, field, h, replace, select } from './dom.js';
import { queryModel, RUN_QUERY } from './queries.js';
import { queryForm } from './query-form.js';
import { guardUnsaved } from './unsaved.js';

const WIDGET = `query Widget($id: ID!) { widget(id: $id) { id dashboardId name chartType query isArchived position { x y w h } } }`;
const DASHBOARD_NAME = `query DashboardName($id: ID!) { dashboard(id: $id) { id name } }`;
const CREATE = `mutation CreateWidget($input: CreateWidgetInput!) { createWidget(input: $input) { id dashboardId } }`;
const UPDATE = `mutation UpdateWidget($id: ID!, $input: UpdateWidgetInput!) { updateWidget(id: $id, input: $input) { id dashboardId } }`;

/**
 * Where a 422 element belongs in the form, from its `loc`: `["input", "query", "limit"]` (save) and
 * `["query", "limit"]` (preview) both name the limit field; null when no field of the form matches.
 */
export function errorKeyOf(loc) {
  const path = loc.slice(loc[0] === 'input' ? 1 : 0);
  if (path[0] === 'name' || path[0] === 'chartType') return path[0];
  if (path[0] === 'position') return path[1] ? `position.${path[1]}` : 'position';
  if (path[0] !== 'query') return null;
  const [part, index, key] = path.slice(1);
  if (part === 'measures' || part === 'dimensions' || part === 'limit' || part === 'offset' || part === 'order' || part === 'timezone') return part === 'offset' ? 'limit' : part;
  if (part === 'timeDimensions') return key === 'granularity' ? 'granularity' : key === 'dateRange' ? 'dateRange' : 'timeDimension';
  if (part === 'filters') return index === undefined ? 'filters' : `filters.${index}`;
  return null;
}

/** The widget composer: create (`dashboardId`) or edit (`widgetId`), preview before saving, the API's 422s at their fields. */
export async function renderComposer(view, { dashboardId, widgetId }) {
  const loading = h('p', { className: 'loading', role: 'status' }, 'Loading…');
  replace(view, h('h1', { tabindex: '-1' }, widgetId ? 'Edit widget' : 'New widget'), loading);
  let widget = null;
  let dashboard;
  let model;
  try {
    if (widgetId) widget = (await graphql(WIDGET, { id: widgetId })).widget;
    [{ dashboard }, model] = await Promise.all([graphql(DASHBOARD_NAME, { id: widget?.dashboardId ?? dashboardId }), queryModel()]);
  } catch (error) {
    if (loading.isConnected) replace(view, h('h1', { tabindex: '-1' }, widgetId ? 'Edit widget' : 'New widget'), h('div', { className: 'error-box', role: 'alert' }, error.message), h('p', {}, h('a', { href: '#/dashboards' }, 'Back to the dashboards')));
    return;
  }
  // Another view was drawn while this one loaded (the person moved on): it stays.
  if (!loading.isConnected) return;
  const back = `#/dashboards/${encodeURIComponent(dashboard.id)}`;
  const name = h('input', { name: 'name', value: widget?.name ?? '', size: 40 });
  const chartType = select(CHART_TYPES, { name: 'chartType', value: widget?.chartType ?? 'BAR' });
  const archived = h('input', { type: 'checkbox', name: 'isArchived', checked: widget?.isArchived ?? false });
  const position = widget?.position ?? { x: 0, y: 0, w: 6, h: 4 };
  const axes = Object.fromEntries(['x', 'y', 'w', 'h'].map((axis) => [axis, h('input', { type: 'number', name: axis, value: String(position[axis]), step: '1', inputmode: 'numeric', size: 4 })]));
  const query = queryForm(model, widget?.query ?? {}, currentTenant()?.timezone ?? 'UTC');
  const summary = h('div', { className: 'error-box', role: 'alert', tabindex: '-1', hidden: true });
  const preview = h('div', { className: 'preview-body' }, h('p', { className: 'hint' }, 'Preview draws the query as the chart type chosen, without saving it.'));
  const save = h('button', { type: 'submit', className: 'primary' }, widgetId ? 'Save changes' : 'Save widget');

  const form = h(
    'form',
    { className: 'composer', novalidate: true, 'aria-labelledby': 'composer-title', onSubmit: (event) => (event.preventDefault(), void onSave()) },
    summary,
    h('fieldset', {}, h('legend', {}, 'Widget'), h('div', { className: 'row' }, field('Name', name, { errorKey: 'name' }), field('Chart type', chartType, { errorKey: 'chartType' }), widgetId ? h('label', { className: 'check' }, archived, ' Archived (hidden from the dashboard)') : null)),
    query.elements,
    h('fieldset', { dataset: { errorKey: 'position' } }, h('legend', {}, 'Place on the 12-column grid'), h('p', { className: 'field-error', hidden: true }), h('div', { className: 'row' }, field('Column (x)', axes.x, { errorKey: 'position.x' }), field('Row (y)', axes.y, { errorKey: 'position.y' }), field('Width (w)', axes.w, { errorKey: 'position.w' }), field('Height (h)', axes.h, { errorKey: 'position.h' }))),
    h('div', { className: 'actions' }, h('button', { type: 'button', onClick: () => void onPreview() }, 'Preview'), save, h('a', { href: back, className: 'button' }, 'Cancel')),
  );
  replace(
    view,
    h('p', { className: 'crumbs' }, h('a', { href: '#/dashboards' }, 'Dashboards'), ' / ', h('a', { href: back }, dashboard.name), ' / '),
    h('h1', { tabindex: '-1', id: 'composer-title' }, widgetId ? `Edit widget “${widget.name}”` : `New widget on ${dashboard.name}`),
    h('div', { className: 'composer-layout' }, form, h('section', { className: 'preview card', 'aria-labelledby': 'preview-title' }, h('h2', { id: 'preview-title' }, 'Preview'), preview)),
  );

  const readPosition = () => Object.fromEntries(Object.entries(axes).map(([axis, input]) => [axis, input.value.trim() === '' ? null : Number(input.value)]));
  // Unsaved: what the form would save differs from what it showed at first (a change undone by hand is no change).
  const snapshot = () => JSON.stringify({ name: name.value, chartType: chartType.value, archived: archived.checked, position: readPosition(), query: query.build() });
  const saved = snapshot();
  const release = guardUnsaved(form, () => snapshot() !== saved);

  async function onPreview() {
    clearErrors();
    replace(preview, h('p', { className: 'loading', role: 'status' }, 'Running the query…'));
    try {
      const { executeAnalyticsQuery: result } = await graphql(RUN_QUERY, { query: query.build() });
      draw(preview, chartType.value, result, name.value || 'Preview');
      announce(`Preview drawn: ${result.data.length} rows`);
    } catch (error) {
      replace(preview, h('p', { className: 'hint' }, 'No preview: see the messages at the fields.'));
      showErrors(error);
    }
  }

  async function onSave() {
    clearErrors();
    save.disabled = true;
    const input = { name: name.value, chartType: chartType.value, query: query.build(), position: readPosition() };
    try {
      if (widgetId) await graphql(UPDATE, { id: widgetId, input: { ...input, isArchived: archived.checked } });
      else await graphql(CREATE, { input: { ...input, dashboardId: dashboard.id } });
      announce('Widget saved');
      release();
      location.hash = back;
    } catch (error) {
      showErrors(error);
    } finally {
      save.disabled = false;
    }
  }

  function clearErrors() {
    summary.hidden = true;
    summary.replaceChildren();
    for (const message of form.querySelectorAll('.field-error')) {
      message.hidden = true;
      message.textContent = '';
    }
    for (const control of form.querySelectorAll('[aria-invalid]')) control.removeAttribute('aria-invalid');
  }

  /** Each 422 element's message at the field its `loc` names; the rest, and any other error, in the summary. */
  function showErrors(error) {
    query.numberFilters();
    const unplaced = [];
    let first = null;
    for (const issue of error.validation ?? []) {
      const key = errorKeyOf(issue.loc ?? []);
      const target = key && (form.querySelector(`[data-error-key="${key}"]`) ?? form.querySelector(`[data-error-key="${key.split('.')[0]}"]`));
      const slot = target?.querySelector(':scope > .field-error');
      if (!slot) {
        unplaced.push(issue.msg);
        continue;
      }
      slot.textContent = slot.textContent ? `${slot.textContent} ${issue.msg}` : issue.msg;
      slot.hidden = false;
      const control = target.matches('fieldset, li') ? target : target.querySelector('input, select, textarea');
      control?.setAttribute('aria-invalid', 'true');
      first ??= target.querySelector('input, select, textarea');
    }
    if (!error.validation?.length) unplaced.push(error.message);
    if (unplaced.length) {
      replace(summary, h('p', {}, unplaced.length === 1 ? unplaced[0] : 'The API did not accept this:'), unplaced.length > 1 ? h('ul', {}, unplaced.map((m) => h('li', {}, m))) : null);
      summary.hidden = false;
    }
    (first ?? summary).focus();
  }
}
