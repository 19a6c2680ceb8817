import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseUrl, request, type HttpResult, type TestTenant } from '../../utils/e2e';

/** Shared helpers of the billing end-to-end suites (test/e2e/billing-*.test.ts). */

/** Sends a request as the tenant; a body is sent as JSON (a string as is). */
export function send(tenant: TestTenant, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult> {
  return request(`${baseUrl()}${path}`, {
    method,
    headers: { ...tenant.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Runs a GraphQL operation and fails the test on errors. */
export async function gql(tenant: TestTenant, query: string, variables?: Record<string, unknown>): Promise<any> {
  const res = await tenant.graphql(query, variables);
  if (res.status !== 200 || res.body.errors) throw new Error(`GraphQL failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/** Creates a patient through the gateway (tenant subgraph); returns its id. */
export async function createPatient(tenant: TestTenant, input: Record<string, unknown> = {}): Promise<string> {
  const data = await gql(tenant, 'mutation($i: CreatePatientInput!) { createPatient(input: $i) { id } }', { i: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', ...input } });
  return data.createPatient.id;
}

/** Creates a location through the gateway; returns its id. */
export async function createLocation(tenant: TestTenant, input: Record<string, unknown> = {}): Promise<string> {
  const data = await gql(tenant, 'mutation($i: CreateLocationInput!) { createLocation(input: $i) { id } }', { i: { name: 'Main Clinic', addressLineOne: '1 Main St', city: 'Portland', ...input } });
  return data.createLocation.id;
}

/** A valid card body of `POST /user/patient/payment-methods/create`. */
export const cardBody = (over: Record<string, unknown> = {}) => ({
  paymentMethodId: `pm_${Math.random().toString(36).slice(2, 12)}`,
  methodType: 'card',
  card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: new Date().getUTCFullYear() + 3 },
  ...over,
});

/** Adds a card to a patient through REST; returns the record. */
export async function addCard(tenant: TestTenant, patientId: string, over: Record<string, unknown> = {}): Promise<any> {
  const res = await send(tenant, 'POST', `/user/patient/payment-methods/create?patient_id=${patientId}`, cardBody(over));
  if (res.status !== 200) throw new Error(`adding a card failed: ${res.status} ${res.text}`);
  return res.body;
}

/** Issues a gift card through GraphQL; returns `{id, code}`. */
export async function issueCard(tenant: TestTenant, input: Record<string, unknown>): Promise<{ id: string; code: string }> {
  const data = await gql(tenant, 'mutation($i: IssueGiftCardInput!) { issueGiftCard(input: $i) { id code } }', { i: input });
  return data.issueGiftCard;
}

/** The e-mails the server wrote under `<DATA_DIR>/mail` (no SMTP_URL in tests) that mention `needle`. */
export function mailsMentioning(needle: string): string[] {
  const dir = join(process.env.E2E_DATA_DIR!, 'mail');
  let files: string[] = [];
  try {
    files = readdirSync(dir);
  } catch {
    return [];
  }
  return files.map((f) => readFileSync(join(dir, f), 'utf8')).filter((mail) => mail.includes(needle));
}

