import { signIn } from './api.js';
import { field, h, replace } from './dom.js';

/** The sign-in form: tenant id, e-mail and password, and a code from an authenticator app once the server asks for one. */
export function renderSignIn(view, { reason = null, tenantId = '', notice = null, onSignedIn }) {
  const tenant = h('input', { name: 'tenant', autocomplete: 'off', spellcheck: 'false', required: true, size: 40, value: tenantId });
  const email = h('input', { name: 'email', type: 'email', autocomplete: 'username', spellcheck: 'false', required: true, size: 40 });
  // A person's password, not a key: the browser's password manager may offer to keep it.
  const password = h('input', { name: 'password', type: 'password', autocomplete: 'current-password', required: true, size: 40 });
  const code = h('input', { name: 'code', inputmode: 'numeric', autocomplete: 'one-time-code', spellcheck: 'false', size: 8, maxlength: 10 });
  const codeField = field('Two-factor code', code, { hint: 'The six-digit code your authenticator app shows now.' });
  codeField.hidden = true;
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
        const empty = [tenant, email, password].find((input) => !input.value.trim());
        if (empty) return showError('Type the tenant id, your e-mail and your password.', empty);
        if (!codeField.hidden && !code.value.trim()) return showError('Type the six-digit code your authenticator app shows.', code);
        submit.disabled = true;
        submit.textContent = 'Signing in…';
        try {
          const session = await signIn({ tenantId: tenant.value, email: email.value, password: password.value, code: codeField.hidden ? '' : code.value });
          password.value = '';
          code.value = '';
          onSignedIn(session);
        } catch (error) {
          if (error.code === 'TWO_FACTOR_REQUIRED') codeField.hidden = false;
          showError(error.message, error.code === 'TWO_FACTOR_REQUIRED' || !codeField.hidden ? code : password);
        } finally {
          submit.disabled = false;
          submit.textContent = 'Sign in';
        }
      },
    },
    h('h1', { id: 'sign-in-title' }, 'Sign in'),
    h('p', {}, 'Use your clinic’s tenant id and the e-mail and password you chose when you accepted your invitation. This browser then keeps you signed in, reloads included, until you sign out or leave it idle for a while.'),
    ...(notice ? [h('p', { id: 'sign-in-notice', role: 'status' }, notice)] : []),
    status,
    field('Tenant id', tenant),
    field('E-mail', email),
    field('Password', password),
    codeField,
    submit,
  );
  function showError(message, focus) {
    status.textContent = message;
    status.hidden = false;
    focus.focus();
    if (focus === password || focus === code) focus.select();
  }
  replace(view, form);
  (tenantId ? email : tenant).focus();
}
