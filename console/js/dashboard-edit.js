// A dashboard's own settings on its page: rename (name and description) and delete, with undo.
import { graphql } from './api.js';
import { announce, field, h, replace } from './dom.js';
import { deleteWithUndo } from './undo.js';
import { guardUnsaved } from './unsaved.js';

const UPDATE = `mutation RenameDashboard($id: ID!, $input: UpdateDashboardInput!) { updateDashboard(id: $id, input: $input) { id name description } }`;
const DELETE = `mutation DeleteDashboard($id: ID!) { deleteDashboard(id: $id) }`;

/**
 * The dashboard's heading with **Rename** and **Delete dashboard**: elements to place in the view.
 * Renaming opens a form in place (a warning guards its unsaved changes); deleting leaves for the list.
 */
export function dashboardHeading(dashboard) {
  const title = h('h1', { tabindex: '-1' }, dashboard.name);
  const about = h('p', { hidden: !dashboard.description }, dashboard.description ?? '');
  const slot = h('div', {});
  const rename = h('button', { type: 'button', 'aria-expanded': 'false', onClick: () => openForm() }, 'Rename');
  const remove = h('button', { type: 'button', onClick: onDelete }, 'Delete dashboard');
  let release = () => {};

  function openForm() {
    if (slot.firstChild) return void slot.querySelector('input').focus();
    const name = h('input', { name: 'name', value: dashboard.name, required: true, maxlength: '200', size: 30 });
    const description = h('input', { name: 'description', value: dashboard.description ?? '', size: 50 });
    const problem = h('div', { className: 'error-box', role: 'alert', hidden: true });
    const form = h(
      'form',
      { className: 'card', 'aria-label': 'Rename the dashboard', onSubmit: (event) => (event.preventDefault(), void save()) },
      h('div', { className: 'toolbar' }, field('Dashboard name', name), field('Description', description)),
      problem,
      h('div', { className: 'actions' }, h('button', { type: 'submit', className: 'primary' }, 'Save name'), h('button', { type: 'button', onClick: close }, 'Cancel')),
    );
    release = guardUnsaved(form, () => name.value !== dashboard.name || description.value !== (dashboard.description ?? ''));
    replace(slot, form);
    rename.setAttribute('aria-expanded', 'true');
    name.focus();

    async function save() {
      problem.hidden = true;
      try {
        const { updateDashboard } = await graphql(UPDATE, { id: dashboard.id, input: { name: name.value.trim(), description: description.value.trim() } });
        Object.assign(dashboard, updateDashboard);
        title.textContent = dashboard.name;
        about.textContent = dashboard.description ?? '';
        about.hidden = !dashboard.description;
        announce(`Dashboard renamed ${dashboard.name}`);
        close();
      } catch (error) {
        replace(problem, error.validation?.length ? error.validation.map((v) => h('p', {}, v.msg)) : h('p', {}, error.message));
        problem.hidden = false;
      }
    }
  }

  function close() {
    release();
    slot.replaceChildren();
    rename.setAttribute('aria-expanded', 'false');
    rename.focus();
  }

  function onDelete() {
    release();
    const back = location.hash;
    deleteWithUndo({
      id: dashboard.id,
      label: `Dashboard “${dashboard.name}” deleted.`,
      mutation: DELETE,
      // Nothing was deleted yet: the dashboard opens again as it was left, its location and range included.
      onUndo: () => void (location.hash = back),
      onFailed: (error) => window.alert(`The dashboard “${dashboard.name}” could not be deleted: ${error.message}`),
    });
    location.hash = '#/dashboards';
  }

  return { elements: [title, about, h('div', { className: 'actions' }, rename, remove), slot] };
}
