// The console's only way to the server. A person signs in with tenant id, e-mail and password
// (POST /auth/sign-in); the server answers with a session cookie this script cannot read (HttpOnly),
// which the browser sends with every same-origin request, so a reload keeps the session until
// sign-out or the server's idle and absolute deadlines (docs/access.md, Sessions). No API key ever
// passes through the console. The session's CSRF token, sent as X-CSRF-Token on every POST, lives
// in this module's memory only; after a reload GET /auth/session gives it again.

let session = null;
let onChange = () => {};

/** An answer that is not data: the HTTP status or GraphQL code, a message for people, and a 422's list. */
export class ApiError extends Error {
  constructor(message, { status = 0, code = null, validation = [], retryAfter = null } = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.validation = validation;
    this.retryAfter = retryAfter;
  }
}

const SESSION_OVER = 'Your session has ended (signed out, idle for too long, or your access changed): sign in again.';
const NO_COOKIE = 'The server accepted the sign-in, but this browser did not keep the session cookie, which is sent over HTTPS only: open the console at an https:// address (or at http://localhost).';
const wait = (seconds) => (!seconds ? 'a few minutes' : seconds >= 120 ? `about ${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`);

/** The server's words in an answer: REST's `detail`, or the first GraphQL error's message (/graphql's refusals are GraphQL-shaped). */
function detailOf(body) {
  if (typeof body?.detail === 'string') return body.detail;
  return typeof body?.errors?.[0]?.message === 'string' ? body.errors[0].message : '';
}

/** Messages for the answers a person can act on (docs/console.md lists them). */
function httpMessage(status, body, retryAfter) {
  const detail = detailOf(body);
  if (status === 401) return SESSION_OVER;
  if (status === 403 && detail.startsWith('CSRF')) return 'The page’s security token was not accepted (did you sign in again in another tab?): reload the page.';
  if (status === 403 && detail.startsWith('Two-factor')) return 'Your clinic asks for a second factor: set it up first.';
  if (status === 429) return `Too many requests for this clinic: wait ${wait(Number(retryAfter))}, then try again.`;
  if (status === 503) return `The service is unavailable for a moment: try again in ${retryAfter ?? 'a few'} seconds.`;
  if (detail) return `${detail} (HTTP ${status})`;
  return `The server answered HTTP ${status}.`;
}

/**
 * Whether a /graphql answer is a refusal of the request as a whole (the session over, a CSRF token or
 * pending second factor refused, the budget spent, a service away), rather than an operation's error:
 * the edge writes its refusals as GraphQL errors too (docs/api.md, Errors), so the status and message tell.
 */
function refusedRequest(status, detail) {
  return status === 401 || status === 429 || status === 503 || (status === 403 && (detail.startsWith('CSRF') || detail.startsWith('Two-factor')));
}

/** One same-origin request: the cookie goes along, and the CSRF token on anything but a GET. */
async function send(path, { method = 'GET', body, accept = 'application/json' } = {}) {
  const headers = { accept };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && session) headers['x-csrf-token'] = session.csrfToken;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin', cache: 'no-store' });
  } catch {
    throw new ApiError('Cannot reach the server: check the connection and try again.');
  }
  const data = response.status === 204 ? null : await response.json().catch(() => null);
  return { response, data, retryAfter: response.headers.get('retry-after') };
}

/** Runs one GraphQL operation as the signed-in person; resolves to `data`, or throws an ApiError. */
export async function graphql(query, variables = {}) {
  const current = session;
  if (!current) throw new ApiError(SESSION_OVER, { status: 401 });
  const { response, data: body, retryAfter } = await send('/graphql', { method: 'POST', body: { query, variables }, accept: 'application/graphql-response+json, application/json' });
  const first = body?.errors?.[0];
  if (!response.ok && (!first || refusedRequest(response.status, detailOf(body)))) {
    const after = retryAfter ?? first?.extensions?.retryAfter ?? null;
    const error = new ApiError(httpMessage(response.status, body, after), { status: response.status, code: first?.extensions?.code ?? null, retryAfter: after });
    // Only the session this request was made in ends (a later sign-in is left alone).
    if (current === session && response.status === 401) end(error.message);
    else if (current === session && response.status === 403 && detailOf(body).startsWith('Two-factor')) (session.twoFactorPending = true), onChange(null);
    throw error;
  }
  if (first) {
    const code = first.extensions?.code ?? null;
    const scope = first.extensions?.scope;
    // The role decides the scopes (docs/access.md): name the missing one, so the person knows what to ask for.
    const message = code === 'FORBIDDEN' && scope ? `Your role (${current.user.role}) does not include the scope "${scope}" this needs: ask an admin of your clinic.` : first.message;
    throw new ApiError(message, { status: response.status, code, validation: first.extensions?.validation ?? [] });
  }
  return body.data;
}

/** The sign-in form's messages: a code asked for, a wrong password, the failed sign-in limit. */
function signInError(status, body, retryAfter, withCode) {
  const detail = typeof body?.detail === 'string' ? body.detail : '';
  if (status === 401 && detail.startsWith('A two-factor code is required')) return new ApiError('Your account needs a code too: type the six-digit code your authenticator app shows.', { status, code: 'TWO_FACTOR_REQUIRED' });
  if (status === 401) return new ApiError(withCode ? 'The e-mail, password or code was not accepted. Check them and try again.' : 'The e-mail or password was not accepted for this tenant. Check them and try again.', { status });
  if (status === 429) return new ApiError(`Too many failed sign-ins: wait ${wait(Number(retryAfter))}, then try again.`, { status, retryAfter });
  if (status === 422) return new ApiError('Type the tenant id, your e-mail and your password.', { status });
  return new ApiError(httpMessage(status, body, retryAfter), { status });
}

/** Signs a person in; resolves to the session (as restoreSession), or throws an ApiError (code TWO_FACTOR_REQUIRED: ask for the code). */
export async function signIn({ tenantId, email, password, code = '' }) {
  const body = { tenantId: tenantId.trim(), email: email.trim(), password, ...(code.trim() ? { code: code.trim() } : {}) };
  const { response, data, retryAfter } = await send('/auth/sign-in', { method: 'POST', body });
  if (!response.ok) throw signInError(response.status, data, retryAfter, Boolean(body.code));
  const restored = await restoreSession();
  // Browsers keep a Secure cookie only from https:// or localhost: a page served over plain HTTP elsewhere loses it at once.
  if (!restored) throw new ApiError(NO_COOKIE);
  return restored;
}

/** Reads the browser's session (GET /auth/session) and the tenant's public details; null when nobody is signed in. */
export async function restoreSession() {
  const { response, data } = await send('/auth/session');
  if (response.status === 401) return (session = null);
  if (!response.ok) throw new ApiError(httpMessage(response.status, data, null), { status: response.status });
  session = { tenantId: data.tenantId, user: data.user, scopes: data.scopes, twoFactorPending: data.twoFactorPending, csrfToken: data.csrfToken, tenant: null };
  if (!session.twoFactorPending) session.tenant = (await graphql('{ publicTenant { id name timezone currency } }')).publicTenant;
  return session;
}

/** Ends the session on the server (POST /auth/sign-out), then here; the sign-in form says so if the server could not be told. */
export async function signOut() {
  let reason = null;
  if (session) {
    const failed = 'Signing out did not reach the server: this browser may still be signed in. Reload the page and sign out again.';
    try {
      const { response } = await send('/auth/sign-out', { method: 'POST' });
      // 401: the session had already ended, which is what was asked.
      if (!response.ok && response.status !== 401) reason = failed;
    } catch {
      reason = failed;
    }
  }
  end(reason);
}

function end(reason) {
  session = null;
  onChange(reason);
}

/** Sets up a second factor for a signed-in person: a new secret and its otpauth:// URI, kept only once confirmed. */
export async function twoFactorSetup() {
  const { response, data, retryAfter } = await send('/auth/two-factor/setup', { method: 'POST' });
  if (!response.ok) throw new ApiError(httpMessage(response.status, data, retryAfter), { status: response.status });
  return data;
}

/** Confirms the secret with a code from the app; then the session is read again (no longer pending). */
export async function twoFactorConfirm(secret, code) {
  const { response, data, retryAfter } = await send('/auth/two-factor/confirm', { method: 'POST', body: { secret, code: code.trim() } });
  if (response.status === 422) throw new ApiError(Array.isArray(data?.detail) ? `That code did not match: ${data.detail[0].msg}` : 'That code did not match.', { status: 422 });
  if (!response.ok) throw new ApiError(httpMessage(response.status, data, retryAfter), { status: response.status });
  return restoreSession();
}

/** The signed-in person's session ({tenantId, user: {id, role}, scopes, twoFactorPending, tenant}), or null. */
export const currentSession = () => session;

/** The signed-in tenant's public details (name, timezone, currency), or null. */
export const currentTenant = () => session?.tenant ?? null;

/** Registers what happens when the session ends (sign-out, a 401 mid-session) or needs a second factor first; `reason` is for the sign-in form. */
export function whenSessionChanges(callback) {
  onChange = callback;
}
