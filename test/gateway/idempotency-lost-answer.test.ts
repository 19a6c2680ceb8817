import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { createTestTenant, request, type TestTenant } from '../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';
import { cardBody, createPatient, gql } from '../subgraphs/billing/rest-kit';

const LOCK_SECONDS = 2;

/** Runs one statement on the test database. */
async function sql<T = any>(text: string, params: unknown[]): Promise<T[]> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * An Idempotency-Key whose request never finished (its process died after charging, before the
 * answer was stored: docs/api.md, Safe retries): a retry is a 409 with Retry-After saying when the
 * key is released at the latest (IDEMPOTENCY_LOCK_SECONDS); after that the retry runs, and the
 * member is not charged twice.
 */
describe('an Idempotency-Key left in progress by a lost answer', () => {
  let app: InProcessApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    app = await startInProcessApp({ IDEMPOTENCY_LOCK_SECONDS: String(LOCK_SECONDS) });
    tenant = await createTestTenant('Lost Answer Clinic', app.url);
  });
  afterAll(() => app?.close());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(`${app.url}${path}`, { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('is released after the bound, and the retry that then runs charges nothing more', async () => {
    const patient = await createPatient(tenant);
    const card = await post(`/user/patient/payment-methods/create?patient_id=${patient}`, cardBody());
    expect(card.status).toBe(200);
    const { createMember } = await gql(tenant, 'mutation($i: CreateMemberInput!) { createMember(input: $i) { id } }', {
      i: { patientId: patient, planName: 'Monthly', priceCents: 4900, interval: 'MONTH', status: 'PAST_DUE', balanceDueCents: 4900 },
    });
    const key = `lost-${createMember.id}`;
    const payment = { memberId: createMember.id, paymentMethodId: card.body.id, comment: 'lost answer' };
    const first = await post('/inventory/members/manual-payment', payment, { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('SUCCEEDED');
    // The answer is lost: the process that charged died before storing it, its claim still held.
    await sql(
      `update gateway.idempotency_keys set state = 'in_progress', status = null, body = null, owner = gen_random_uuid(), locked_until = now() + make_interval(secs => $3)
       where tenant_id = $1 and key = $2`,
      [tenant.tenantId, key, LOCK_SECONDS],
    );

    const held = await post('/inventory/members/manual-payment', payment, { 'Idempotency-Key': key });
    expect(held.status).toBe(409);
    expect(held.body).toEqual({ detail: 'A request with this Idempotency-Key is still being processed' });
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(held.headers.get('retry-after'))).toBeLessThanOrEqual(LOCK_SECONDS);

    await sleep(Number(held.headers.get('retry-after')) * 1000 + 300);
    const retry = await post('/inventory/members/manual-payment', payment, { 'Idempotency-Key': key });
    // It ran (no 409), and found the balance settled by the first: nothing due, no second charge.
    expect(retry.status).toBe(422);
    const charges = await sql(`select status from billing.member_payments where tenant_id = $1 and member_id = $2`, [tenant.tenantId, createMember.id]);
    expect(charges).toEqual([{ status: 'SUCCEEDED' }]);
  }, 60_000);
});
