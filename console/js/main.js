import { currentSession, restoreSession, signOut, whenSessionChanges } from './api.js';
import { disposeIn } from './charts.js';
import { renderComposer } from './composer.js';
import { renderDashboard } from './dashboard.js';
import { renderDashboards } from './dashboards.js';
import { h, replace } from './dom.js';
import { renderRevenue } from './revenue.js';
import { renderSignIn } from './sign-in.js';
import { renderAcceptInvitation } from './accept-invitation.js';
import { renderTwoFactorSetup } from './two-factor.js';
import { flushPendingDeletes } from './undo.js';

// Views are addressed by the URL's hash (#/dashboards/<id>, ...), so back/forward and a reload keep
// the place; a reload keeps the session too (its cookie), and nothing of it ever goes in the URL.
const ROUTES = [
  [/^#\/dashboards\/([^/?]+)\/widgets\/new$/, (view, [dashboardId]) => renderComposer(view, { dashboardId: decode(dashboardId) })],
  [/^#\/widgets\/([^/?]+)\/edit$/, (view, [widgetId]) => renderComposer(view, { widgetId: decode(widgetId) })],
  [/^#\/dashboards\/([^/?]+)(?:\?(.*))?$/, (view, [id, search]) => renderDashboard(view, decode(id), new URLSearchParams(search ?? ''))],
  [/^#\/revenue(?:\?(.*))?$/, (view, [search]) => renderRevenue(view, new URLSearchParams(search ?? ''))],
  [/^#\/dashboards(?:\?(.*))?$/, (view, [search]) => renderDashboards(view, new URLSearchParams(search ?? ''))],
];
// A path segment is decoded here; a query part goes to URLSearchParams undecoded (which decodes it once, `%26` staying inside a value).
const decode = (segment) => decodeURIComponent(segment);

const view = document.getElementById('view');
const nav = document.getElementById('nav');
const session = document.getElementById('session');
let rendering = 0;
// The hash's path (no query) of the view shown last.
let shownPath = null;

function showSession(current) {
  nav.hidden = !current?.tenant;
  session.hidden = !current;
  const role = current?.user.role;
  document.getElementById('session-tenant').textContent = !current ? '' : current.tenant ? `Signed in to ${current.tenant.name} as ${role}` : `Signed in as ${role}`;
}

async function route() {
  const run = ++rendering;
  disposeIn(view);
  const current = currentSession();
  if (!current?.tenant) return;
  showSession(current);
  const hash = location.hash || '#/dashboards';
  for (const link of nav.querySelectorAll('a')) link.toggleAttribute('aria-current', hash.startsWith(link.getAttribute('href')));
  const found = ROUTES.map(([pattern, render]) => [hash.match(pattern), render]).find(([match]) => match);
  if (!found) {
    replace(view, h('h1', { tabindex: '-1' }, 'Not found'), h('p', {}, h('a', { href: '#/dashboards' }, 'Back to the dashboards')));
    view.querySelector('h1').focus();
    return;
  }
  const [match, render] = found;
  await render(view, match.slice(1));
  // A newer navigation may have replaced this view meanwhile; only the latest one takes focus. A move
  // within one view (the explorer's next page, a group opened: only the query changed) leaves focus and scroll to the view.
  const path = hash.split('?')[0];
  if (run === rendering && path !== shownPath) view.querySelector('h1')?.focus({ preventScroll: false });
  if (run === rendering) shownPath = path;
}

/** Shows what the session allows: the sign-in form (with `reason`), the second factor's set-up, or the view the hash names. */
function show(reason) {
  const current = currentSession();
  ++rendering;
  shownPath = null;
  disposeIn(view);
  showSession(current);
  const invitation = /^#\/accept-invitation\?token=([A-Za-z0-9_-]{43})$/.exec(location.hash);
  if (!current && invitation) {
    return renderAcceptInvitation(view, {
      token: invitation[1],
      // The token is used up: it leaves the address bar, and the person signs in with the password just chosen.
      onAccepted: (tenantId) => {
        history.replaceState(null, '', '#/dashboards');
        renderSignIn(view, { reason: null, tenantId, notice: 'Your password is set: sign in with it.', onSignedIn: () => show(null) });
      },
    });
  }
  if (!current) return renderSignIn(view, { reason, onSignedIn: () => show(null) });
  if (current.twoFactorPending) return renderTwoFactorSetup(view, { onEnrolled: () => show(null) });
  // Signed in, but the tenant's details could not be read (the server busy, say): offer another try.
  if (!current.tenant) return replace(view, h('h1', { tabindex: '-1' }, 'Analyst console'), h('div', { className: 'error-box', role: 'alert' }, reason ?? 'The session could not be read.'), h('button', { type: 'button', onClick: start }, 'Try again'));
  return route();
}

/** Takes up the session the browser holds, if any (its cookie outlives a reload). */
function start() {
  restoreSession().then(
    () => show(null),
    (error) => show(error.message),
  );
}

// After a turn: the view whose request found the session over shows its own error first, then the form replaces it.
whenSessionChanges((reason) => void setTimeout(() => show(reason)));
// Deletes still held for undo are sent first: after sign-out the session that could send them is gone.
document.getElementById('sign-out').addEventListener('click', () => void flushPendingDeletes().finally(signOut));
window.addEventListener('hashchange', () => void route());
start();
