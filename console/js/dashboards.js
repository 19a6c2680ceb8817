import { graphql } from './api.js';
import { announce, field, h, replace } from './dom.js';
import { isPendingDelete } from './undo.js';
import { pageOf, pageWindow } from './pages.js';

const PER_PAGE = 10;
const LIST = `query Dashboards($first: Int!, $after: String, $name: String) {
  dashboards(first: $first, after: $after, name: $name, sortBy: NAME, sortDirection: ASC) {
    totalCount nodes { id name description locationId updatedAt widgets { id isArchived } }
  }
}`;

const CREATE = `mutation CreateDashboard($input: CreateDashboardInput!) { createDashboard(input: $input) { id name } }`;

const href = (page, name) => `#/dashboards?${new URLSearchParams({ ...(name ? { name } : {}), page: String(page) })}`;

/** The tenant's dashboards: a name filter and pages of PER_PAGE, each a link to the dashboard; and a form for a new one. */
export async function renderDashboards(view, params) {
  const name = params.get('name') ?? '';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const filter = h('input', { type: 'search', name: 'name', value: name });
  const results = h('div', { 'aria-live': 'polite', 'aria-busy': 'true' }, h('p', { className: 'loading' }, 'Loading dashboards…'));
  replace(
    view,
    h('h1', { tabindex: '-1' }, 'Dashboards'),
    h(
      'form',
      {
        className: 'toolbar',
        role: 'search',
        onSubmit(event) {
          event.preventDefault();
          location.hash = href(1, filter.value.trim());
        },
      },
      field('Name contains', filter),
      h('button', { type: 'submit' }, 'Filter'),
    ),
    results,
    newDashboardForm(),
  );
  try {
    const dashboards = pageOf((await graphql(LIST, { ...pageWindow(page, PER_PAGE), name: name || null })).dashboards, page, PER_PAGE);
    // Another view was drawn meanwhile: nothing to fill.
    if (!results.isConnected) return;
    results.setAttribute('aria-busy', 'false');
    // A dashboard deleted a moment ago waits for its undo window to close: it is gone for the person already.
    const shown = dashboards.items.filter((d) => !isPendingDelete(d.id));
    const total = dashboards.total - (dashboards.items.length - shown.length);
    if (total === 0) return void replace(results, h('p', { className: 'empty' }, name ? `No dashboard's name contains “${name}”.` : 'This tenant has no dashboards yet.'));
    replace(
      results,
      h('p', { className: 'hint' }, `${total} dashboard${total === 1 ? '' : 's'}`),
      h(
        'ul',
        { className: 'dashboard-list' },
        shown.map((d) =>
          h(
            'li',
            { className: 'card' },
            h('h2', {}, h('a', { href: `#/dashboards/${encodeURIComponent(d.id)}` }, d.name)),
            d.description ? h('p', {}, d.description) : null,
            h('p', { className: 'hint' }, `${d.widgets.filter((w) => !w.isArchived).length} widgets`),
          ),
        ),
      ),
      pager(dashboards, name),
    );
  } catch (error) {
    results.setAttribute('aria-busy', 'false');
    replace(results, h('div', { className: 'error-box', role: 'alert' }, error.message));
  }
}

/** Previous/next links and where we are; links, so the browser's history pages back too. */
function pager(result, name) {
  return h(
    'nav',
    { className: 'pager', 'aria-label': 'Pages' },
    result.page > 1 ? h('a', { href: href(result.page - 1, name), className: 'button' }, '← Previous') : null,
    h('span', {}, `Page ${result.page} of ${result.pages}`),
    result.page < result.pages ? h('a', { href: href(result.page + 1, name), className: 'button' }, 'Next →') : null,
  );
}

/** "New dashboard": a name and a description; the new dashboard opens once the API has made it. */
function newDashboardForm() {
  const name = h('input', { name: 'name', required: true, maxlength: '200', size: 30 });
  const description = h('input', { name: 'description', size: 40 });
  const problem = h('div', { className: 'error-box', role: 'alert', hidden: true });
  const create = h('button', { type: 'submit', className: 'primary' }, 'Create dashboard');
  async function onCreate(event) {
    event.preventDefault();
    problem.hidden = true;
    create.disabled = true;
    try {
      const { createDashboard } = await graphql(CREATE, { input: { name: name.value.trim(), ...(description.value.trim() ? { description: description.value.trim() } : {}) } });
      announce(`Dashboard ${createDashboard.name} created`);
      location.hash = `#/dashboards/${encodeURIComponent(createDashboard.id)}`;
    } catch (error) {
      replace(problem, error.validation?.length ? error.validation.map((v) => h('p', {}, v.msg)) : h('p', {}, error.message));
      problem.hidden = false;
    } finally {
      create.disabled = false;
    }
  }
  return h(
    'section',
    { className: 'card', 'aria-labelledby': 'new-dashboard-title' },
    h('h2', { id: 'new-dashboard-title' }, 'New dashboard'),
    h('form', { className: 'toolbar', onSubmit: onCreate }, field('Dashboard name', name), field('Description', description), create),
    problem,
  );
}
