import { field, h, replace } from './dom.js';

/**
 * The page an invitation e-mail links to (`#/accept-invitation?token=...`: the token in the URL's
 * fragment, which the browser never sends to a server): the person chooses their password, then
 * signs in with it.
 */
export function renderAcceptInvitation(view, { token, onAccepted }) {
  const password = h('input', { name: 'new-password', type: 'password', autocomplete: 'new-password', required: true, size: 40 });
  const again = h('input', { name: 'new-password-again', type: 'password', autocomplete: 'new-password', required: true, size: 40 });
  const status = h('div', { id: 'accept-error', className: 'error-box', role: 'alert', hidden: true });
  const submit = h('button', { type: 'submit', className: 'primary' }, 'Choose this password');
  const form = h(
    'form',
    {
      className: 'sign-in card',
      'aria-labelledby': 'accept-title',
      novalidate: true,
      async onSubmit(event) {
        event.preventDefault();
        status.hidden = true;
        if ([...password.value].length < 12) return showError('Choose a password of at least 12 characters.', password);
        if (password.value !== again.value) return showError('The two passwords differ: type the same one twice.', again);
        submit.disabled = true;
        try {
          const response = await fetch('/auth/invitations/accept', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ token, password: password.value }),
            credentials: 'same-origin',
            cache: 'no-store',
          });
          const body = await response.json().catch(() => null);
          if (response.ok) return onAccepted(body.tenantId);
          if (response.status === 404) return showError('This invitation is unknown, already used or expired: ask whoever invited you for a new one.', password);
          const detail = typeof body?.detail === 'string' ? body.detail : body?.detail?.[0]?.msg;
          showError(detail ?? `The server answered HTTP ${response.status}.`, password);
        } catch {
          showError('Cannot reach the server: check the connection and try again.', password);
        } finally {
          submit.disabled = false;
        }
      },
    },
    h('h1', { id: 'accept-title' }, 'Accept your invitation'),
    h('p', {}, 'Choose the password you will sign in with: 12 characters or more; a few words make a good one.'),
    status,
    field('Password', password),
    field('Password again', again),
    submit,
  );
  function showError(message, input) {
    status.textContent = message;
    status.hidden = false;
    input.focus();
  }
  replace(view, form);
  password.focus();
}
