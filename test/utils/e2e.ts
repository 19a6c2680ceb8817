/** The end-to-end server global-setup started (all-in-one or distributed, per E2E_MODE). */
export const baseUrl = (): string => {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is unset: run through jest, whose global setup starts the server');
  return url;
};

/** A response read whole: status, headers and parsed JSON (or text). */
export interface HttpResult {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** Sends one request and reads the whole body. */
export async function request(url: string, init: RequestInit = {}): Promise<HttpResult> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** A tenant made for one test, with its key and a client that sends both headers. */
export interface TestTenant {
  tenantId: string;
  apiKey: string;
  headers: Record<string, string>;
  get(path: string, extraHeaders?: Record<string, string>): Promise<HttpResult>;
  graphql(query: string, variables?: Record<string, unknown>): Promise<HttpResult>;
}

/** Calls the operator API with the test operator token. */
export function admin(path: string, init: RequestInit = {}, base = baseUrl()): Promise<HttpResult> {
  return request(`${base}/admin${path}`, {
    ...init,
    headers: { authorization: `Bearer ${process.env.E2E_OPERATOR_TOKEN}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
}

/** Creates a fresh tenant through the operator API: tests never share tenants, so they never interfere. */
export async function createTestTenant(name = 'Test Clinic', base = baseUrl()): Promise<TestTenant> {
  const created = await admin('/tenants', { method: 'POST', body: JSON.stringify({ name }) }, base);
  if (created.status !== 201) throw new Error(`creating a tenant failed: ${created.status} ${created.text}`);
  const tenantId: string = created.body.tenant.id;
  const apiKey: string = created.body.apiKey;
  const headers = { TENANT: tenantId, 'API-KEY': apiKey };
  return {
    tenantId,
    apiKey,
    headers,
    get: (path, extraHeaders = {}) => request(`${base}${path}`, { headers: { ...headers, ...extraHeaders } }),
    graphql: (query, variables) =>
      request(`${base}/graphql`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) }),
  };
}
