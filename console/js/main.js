import { currentTenant, signOut, whenSignedOut } from './api.js';
import { disposeIn } from './charts.js';
import { renderComposer } from './composer.js';
import { renderDashboard } from './dashboard.js';
import { renderDashboards } from './dashboards.js';
import { h, replace } from './dom.js';
import { renderRevenue } from './revenue.js';
import { renderSignIn } from './sign-in.js';

// Views are addressed by the URL's hash (#/dashboards/<id>, ...), so back/forward and a reload keep
// the place; the credentials never go there (a reload asks for them again).
const ROUTES = [
  [/^#\/dashboards\/([^/?]+)\/widgets\/new$/, (view, [dashboardId]) => renderComposer(view, { dashboardId })],
  [/^#\/widgets\/([^/?]+)\/edit$/, (view, [widgetId]) => renderComposer(view, { widgetId })],
  [/^#\/dashboards\/([^/?]+)$/, (view, [id]) => renderDashboard(view, id)],
  [/^#\/revenue$/, (view) => renderRevenue(view)],
  [/^#\/dashboards(?:\?(.*))?$/, (view, [search]) => renderDashboards(view, new URLSearchParams(search ?? ''))],
];

const view = document.getElementById('view');
const nav = document.getElementById('nav');
const session = document.getElementById('session');
let rendering = 0;

function showSession(tenant) {
  nav.hidden = !tenant;
  session.hidden = !tenant;
  document.getElementById('session-tenant').textContent = tenant ? `Signed in to ${tenant.name}` : '';
}

async function route() {
  const run = ++rendering;
  disposeIn(view);
  const tenant = currentTenant();
  showSession(tenant);
  if (!tenant) return;
  const hash = location.hash || '#/dashboards';
  for (const link of nav.querySelectorAll('a')) link.toggleAttribute('aria-current', hash.startsWith(link.getAttribute('href')));
  const found = ROUTES.map(([pattern, render]) => [hash.match(pattern), render]).find(([match]) => match);
  if (!found) {
    replace(view, h('h1', { tabindex: '-1' }, 'Not found'), h('p', {}, h('a', { href: '#/dashboards' }, 'Back to the dashboards')));
    view.querySelector('h1').focus();
    return;
  }
  const [match, render] = found;
  await render(view, match.slice(1).map((part) => (part === undefined ? part : decodeURIComponent(part))));
  // A newer navigation may have replaced this view meanwhile; only the latest one takes focus.
  if (run === rendering) view.querySelector('h1')?.focus({ preventScroll: false });
}

function askToSignIn(reason) {
  disposeIn(view);
  showSession(null);
  renderSignIn(view, { reason, onSignedIn: () => route() });
}

whenSignedOut((reason) => askToSignIn(reason));
document.getElementById('sign-out').addEventListener('click', () => signOut(null));
window.addEventListener('hashchange', () => void route());
askToSignIn(null);
