// The console's only way to the server: POST /graphql with the TENANT and API-KEY headers, like any
// client of the public API. The key lives in this module's memory only: never in storage, cookies
// or the URL, so closing or reloading the tab forgets it.

let credentials = null;
let onSignedOut = () => {};

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

/** Messages for the answers a person can act on (docs/console.md lists them). */
function httpMessage(status, body, retryAfter) {
  if (status === 401) return 'The API key was not accepted: it is unknown or has been revoked. Check it and sign in again.';
  if (status === 403) return 'This API key belongs to another tenant than the tenant id you typed.';
  if (status === 429) return `Too many requests for this tenant: wait ${retryAfter ?? 'a few'} seconds, then try again.`;
  if (status === 422 && Array.isArray(body?.detail) && body.detail.some((d) => d.loc?.[0] === 'header')) return 'Type both the tenant id and the API key.';
  if (status === 503) return `The service is unavailable for a moment: try again in ${retryAfter ?? 'a few'} seconds.`;
  if (typeof body?.detail === 'string') return `${body.detail} (HTTP ${status})`;
  return `The server answered HTTP ${status}.`;
}

/** Runs one GraphQL operation with the signed-in tenant's headers; resolves to `data`, or throws an ApiError. */
export async function graphql(query, variables = {}, session = credentials) {
  if (!session) throw new ApiError('Not signed in.', { status: 401 });
  let response;
  try {
    response = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', TENANT: session.tenantId, 'API-KEY': session.apiKey },
      body: JSON.stringify({ query, variables }),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError('Cannot reach the server: check the connection and try again.');
  }
  const retryAfter = response.headers.get('retry-after');
  const body = await response.json().catch(() => null);
  const first = body?.errors?.[0];
  if (!response.ok && !first) {
    const error = new ApiError(httpMessage(response.status, body, retryAfter), { status: response.status, retryAfter });
    if ((response.status === 401 || response.status === 403) && session === credentials) signOut(error.message);
    throw error;
  }
  if (first) {
    const code = first.extensions?.code ?? null;
    throw new ApiError(first.message, { status: response.status, code, validation: first.extensions?.validation ?? [] });
  }
  return body.data;
}

/** Checks a tenant id and key with one query; on success they become the session's, with the tenant's public details. */
export async function signIn(tenantId, apiKey) {
  const session = { tenantId: tenantId.trim(), apiKey: apiKey.trim() };
  const data = await graphql('{ publicTenant { id name timezone currency } }', {}, session);
  credentials = { ...session, tenant: data.publicTenant };
  return credentials.tenant;
}

/** Forgets the key; `reason` is shown on the sign-in form (a revoked key, for example). */
export function signOut(reason = null) {
  credentials = null;
  onSignedOut(reason);
}

/** The signed-in tenant's public details (name, timezone, currency), or null. */
export const currentTenant = () => credentials?.tenant ?? null;

/** Registers what happens when the session ends (sign-out, or a 401/403 mid-session). */
export function whenSignedOut(callback) {
  onSignedOut = callback;
}
