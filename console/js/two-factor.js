import { twoFactorConfirm, twoFactorSetup } from './api.js';
import { field, h, replace } from './dom.js';

// A clinic that requires a second factor gives a person without one a session that may only enrol
// (docs/access.md, Signing in): this view is all the console shows them until a code confirms it.

/** Enrols a TOTP second factor: shows a fresh secret to add to an authenticator app, then checks a code from it. */
export async function renderTwoFactorSetup(view, { onEnrolled }) {
  const title = h('h1', { tabindex: '-1' }, 'Set up a second factor');
  replace(view, title, h('p', { className: 'loading', role: 'status' }, 'Loading…'));
  let offered;
  try {
    offered = await twoFactorSetup();
  } catch (error) {
    replace(view, title, h('div', { className: 'error-box', role: 'alert' }, error.message));
    return;
  }
  const code = h('input', { name: 'code', inputmode: 'numeric', autocomplete: 'one-time-code', spellcheck: 'false', required: true, size: 8, maxlength: 10 });
  const status = h('div', { className: 'error-box', role: 'alert', hidden: true });
  const submit = h('button', { type: 'submit', className: 'primary' }, 'Confirm');
  const form = h(
    'form',
    {
      className: 'sign-in card',
      'aria-labelledby': 'two-factor-title',
      novalidate: true,
      async onSubmit(event) {
        event.preventDefault();
        status.hidden = true;
        if (!code.value.trim()) return showError('Type the six-digit code your authenticator app shows.');
        submit.disabled = true;
        try {
          await twoFactorConfirm(offered.secret, code.value);
          onEnrolled();
        } catch (error) {
          showError(error.message);
        } finally {
          submit.disabled = false;
        }
      },
    },
    h('h1', { id: 'two-factor-title', tabindex: '-1' }, 'Set up a second factor'),
    h('p', {}, 'Your clinic asks everyone to sign in with a code from an authenticator app as well as a password. Add this key to your app (as a time-based key), then type the code it shows.'),
    h('p', {}, 'Key: ', h('code', { id: 'two-factor-secret', className: 'secret' }, offered.secret.replace(/(.{4})(?=.)/g, '$1 '))),
    h('details', {}, h('summary', {}, 'Or, if your app takes a link'), h('p', {}, h('code', { className: 'secret' }, offered.uri))),
    status,
    field('Code from the app', code),
    submit,
  );
  function showError(message) {
    status.textContent = message;
    status.hidden = false;
    code.focus();
    code.select();
  }
  replace(view, form);
  code.focus();
}
