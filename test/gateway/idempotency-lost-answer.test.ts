import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { createTestTenant, request, type TestTenant } from '../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';
import { cardBody, createPatient, gql, issueCard } from '../subgraphs/billing/rest-kit';

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

/** Makes a PAST_DUE member with a balance of 4900 and a card of its patient; the payment body for them. */
async function pastDueMember(post: (path: string, body: unknown) => Promise<any>, tenant: TestTenant) {
  const patient = await createPatient(tenant);
  const card = await post(`/user/patient/payment-methods/create?patient_id=${patient}`, cardBody());
  expect(card.status).toBe(200);
  const { createMember } = await gql(tenant, 'mutation($i: CreateMemberInput!) { createMember(input: $i) { id } }', {
    i: { patientId: patient, planName: 'Monthly', priceCents: 4900, interval: 'MONTH', status: 'PAST_DUE', balanceDueCents: 4900 },
  });
  return { memberId: createMember.id as string, paymentMethodId: card.body.id as string, comment: 'lost answer' };
}

/**
 * An Idempotency-Key whose request never finished (its process died after charging, before the
 * answer was stored: docs/api.md, Safe retries): a retry is a 409 with Retry-After saying when the
 * key is released at the latest (IDEMPOTENCY_LOCK_SECONDS); after that the retry runs and answers
 * the payment the first made under that key (the billing subgraph keeps the key with the attempt):
 * 200 with its paymentId, the member charged once.
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
  /** The answer is lost: the process that charged died before storing it, its claim still held. */
  const loseAnswer = (key: string) =>
    sql(
      `update gateway.idempotency_keys set state = 'in_progress', status = null, body = null, owner = gen_random_uuid(), locked_until = now() + make_interval(secs => $3)
       where tenant_id = $1 and key = $2`,
      [tenant.tenantId, key, LOCK_SECONDS],
    );

  it('is released after the bound, and the retry that then runs answers the payment made, charging nothing more', async () => {
    const payment = await pastDueMember(post, tenant);
    const key = `lost-${payment.memberId}`;
    const first = await post('/inventory/members/manual-payment', payment, { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('SUCCEEDED');
    await loseAnswer(key);

    const held = await post('/inventory/members/manual-payment', payment, { 'Idempotency-Key': key });
    expect(held.status).toBe(409);
    expect(held.body).toEqual({ detail: 'A request with this Idempotency-Key is still being processed' });
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(held.headers.get('retry-after'))).toBeLessThanOrEqual(LOCK_SECONDS);

    await sleep(Number(held.headers.get('retry-after')) * 1000 + 300);
    const retry = await post('/inventory/members/manual-payment', payment, { 'Idempotency-Key': key });
    // It ran (no 409, no replay) and found the payment made under its key: that payment is the answer, not "no balance due".
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.body).toEqual(first.body);
    const charges = await sql(`select status from billing.member_payments where tenant_id = $1 and member_id = $2`, [tenant.tenantId, payment.memberId]);
    expect(charges).toEqual([{ status: 'SUCCEEDED' }]);
    const [member] = await sql(`select balance_due_cents from billing.members where tenant_id = $1 and id = $2`, [tenant.tenantId, payment.memberId]);
    expect(member.balance_due_cents).toBe(0);
  }, 60_000);

  it('settles an attempt the lost request left PENDING, with its processor key: one charge', async () => {
    const payment = await pastDueMember(post, tenant);
    const key = `pending-${payment.memberId}`;
    const first = await post('/inventory/members/manual-payment', payment, { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    // As if it died between committing the attempt and sending it: PENDING, the balance still due.
    await sql(`update billing.member_payments set status = 'PENDING', processor_payment_id = null where tenant_id = $1 and id = $2`, [tenant.tenantId, first.body.paymentId]);
    await sql(`update billing.members set balance_due_cents = 4900, status = 'PAST_DUE' where tenant_id = $1 and id = $2`, [tenant.tenantId, payment.memberId]);
    await loseAnswer(key);
    await sleep(LOCK_SECONDS * 1000 + 300);

    const retry = await post('/inventory/members/manual-payment', payment, { 'Idempotency-Key': key });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ paymentId: first.body.paymentId, status: 'SUCCEEDED', amountCents: 4900 });
    const charges = await sql(`select status, processor_payment_id from billing.member_payments where tenant_id = $1 and member_id = $2`, [tenant.tenantId, payment.memberId]);
    expect(charges).toEqual([{ status: 'SUCCEEDED', processor_payment_id: expect.stringContaining(first.body.paymentId.replace(/-/g, '')) }]);
    const [member] = await sql(`select balance_due_cents, status from billing.members where tenant_id = $1 and id = $2`, [tenant.tenantId, payment.memberId]);
    expect(member).toEqual({ balance_due_cents: 0, status: 'ACTIVE' });
  }, 60_000);

  it('refuses the key for another member, at the edge and, once the edge has forgotten it, in the subgraph', async () => {
    const payment = await pastDueMember(post, tenant);
    const other = await pastDueMember(post, tenant);
    const key = `reused-${payment.memberId}`;
    expect((await post('/inventory/members/manual-payment', payment, { 'Idempotency-Key': key })).status).toBe(200);
    const reused = { detail: [{ loc: ['header', 'idempotency-key'], msg: 'Value error, this key was already used for a different request', type: 'value_error' }] };
    const atEdge = await post('/inventory/members/manual-payment', other, { 'Idempotency-Key': key });
    expect(atEdge.status).toBe(422);
    expect(atEdge.body).toEqual(reused);
    // Past its 24 hours the edge no longer holds the key; the payment made under it still names it.
    await sql(`delete from gateway.idempotency_keys where tenant_id = $1 and key = $2`, [tenant.tenantId, key]);
    const inSubgraph = await post('/inventory/members/manual-payment', other, { 'Idempotency-Key': key });
    expect(inSubgraph.status).toBe(422);
    expect(inSubgraph.body).toEqual(reused);
    const charges = await sql(`select member_id from billing.member_payments where tenant_id = $1 and member_id = any($2::uuid[])`, [tenant.tenantId, [payment.memberId, other.memberId]]);
    expect(charges).toEqual([{ member_id: payment.memberId }]);
  }, 60_000);

  it('answers a gift card activation whose answer was lost with the card, not "not pending"', async () => {
    const card = await issueCard(tenant, { initialValueCents: 1000, suppressRecipientNotification: true });
    const path = `/billing/gift-cards/issued/${card.id}/activate`;
    const key = `activate-${card.id}`;
    const first = await post(path, { sendNotification: false }, { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    await loseAnswer(key);
    await sleep(LOCK_SECONDS * 1000 + 300);
    const retry = await post(path, { sendNotification: false }, { 'Idempotency-Key': key });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    // Another key is another request: the card is no longer pending.
    expect((await post(path, { sendNotification: false }, { 'Idempotency-Key': `${key}-other` })).status).toBe(409);
    const moves = await sql(`select type from billing.gift_card_transactions where tenant_id = $1 and gift_card_id = $2`, [tenant.tenantId, card.id]);
    expect(moves).toEqual([{ type: 'ACTIVATION' }]);
  }, 60_000);

  it('leaves GraphQL callers, who send no key, as they were: a second payment finds nothing due', async () => {
    const payment = await pastDueMember(post, tenant);
    const pay = 'mutation($i: MemberManualPaymentInput!) { makeMemberManualPayment(input: $i) { paymentId status } }';
    const { makeMemberManualPayment } = await gql(tenant, pay, { i: payment });
    expect(makeMemberManualPayment.status).toBe('SUCCEEDED');
    await expect(gql(tenant, pay, { i: payment })).rejects.toThrow(/no balance due/);
    const charges = await sql(`select request_key from billing.member_payments where tenant_id = $1 and member_id = $2`, [tenant.tenantId, payment.memberId]);
    expect(charges).toEqual([{ request_key: null }]);
  }, 60_000);
});
