import { signIn } from './api.js';
import { field, h, replace } from './dom.js';

/** The sign-in form: tenant id and API key, typed by the user and kept in this tab's memory only. */
export function renderSignIn(view, { reason = null, onSignedIn }) {
  const tenant = h('input', { name: 'tenant', autocomplete: 'off', spellcheck: 'false', required: true, size: 40 });
  // type=password: the key is not shown on screen; autocomplete off so the browser does not offer to store it.
  const key = h('input', { name: 'api-key', type: 'password', autocomplete: 'off', spellcheck: 'false', required: true, size: 40 });
  const status = h('div', { id: 'sign-in-error', className: 'error-box', role: 'alert', hidden: !reason }, reason ?? '');
  const submit = h('button', { type: 'submit', className: 'primary' }, 'Sign in');
  const form = h(
    'form',
    {
      className: 'sign-in card',
      'aria-labelledby': 'sign-in-title',
      novalidate: true,
      async onSubmit(event) {
        event.preventDefault();
        status.hidden = true;
        if (!tenant.value.trim() || !key.value.trim()) return showError('Type both the tenant id and the API key.');
        submit.disabled = true;
        submit.textContent = 'Signing in…';
        try {
          const found = await signIn(tenant.value, key.value);
          key.value = '';
          onSignedIn(found);
        } catch (error) {
          showError(error.message);
        } finally {
          submit.disabled = false;
          submit.textContent = 'Sign in';
        }
      },
    },
    h('h1', { id: 'sign-in-title' }, 'Sign in'),
    h('p', {}, 'Use your tenant id and an API key of that tenant (the same two headers as the API). The key stays in this tab only: a reload or closing the tab forgets it.'),
    status,
    field('Tenant id', tenant),
    field('API key', key),
    submit,
  );
  function showError(message) {
    status.textContent = message;
    status.hidden = false;
    (tenant.value.trim() ? key : tenant).focus();
  }
  replace(view, form);
  tenant.focus();
}
