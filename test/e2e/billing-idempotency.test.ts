import { Client } from 'pg';
import { baseUrl, createTestTenant } from '../utils/e2e';
import { cardBody, createPatient, gql, issueCard, send } from '../subgraphs/billing/rest-kit';
import { eventually } from '../utils/eventually';

/** Rows of a billing table for one tenant (how many times the work really happened). */
async function count(sql: string, params: unknown[]): Promise<number> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows[0].n;
  } finally {
    await client.end();
  }
}

describe(`Idempotency-Key on the billing POSTs (${process.env.E2E_MODE} mode)`, () => {
  it('replays a manual payment whose response was dropped: charged once', async () => {
    const tenant = await createTestTenant('Retry');
    const patient = await createPatient(tenant);
    const card = (await send(tenant, 'POST', `/user/patient/payment-methods/create?patient_id=${patient}`, cardBody())).body;
    const { createMember } = await gql(tenant, 'mutation($i: CreateMemberInput!) { createMember(input: $i) { id } }', {
      i: { patientId: patient, planName: 'Monthly', priceCents: 4900, interval: 'MONTH', status: 'PAST_DUE', balanceDueCents: 4900 },
    });
    const key = `pay-${createMember.id}`;
    const body = JSON.stringify({ memberId: createMember.id, paymentMethodId: card.id, comment: 'retry test' });
    const headers = { ...tenant.headers, 'content-type': 'application/json', 'Idempotency-Key': key };
    // The client sends the payment, then loses the connection without ever reading the answer
    // (a dropped response): abort once the server has taken the key and finished the work.
    const controller = new AbortController();
    const first = fetch(`${baseUrl()}/inventory/members/manual-payment`, { method: 'POST', headers, body, signal: controller.signal });
    const completed = `select count(*)::int as n from gateway.idempotency_keys where tenant_id = $1 and key = $2 and state = 'completed'`;
    await eventually(async () => (await count(completed, [tenant.tenantId, key])) === 1);
    controller.abort();
    await first.catch(() => undefined);
    expect(await count('select count(*)::int as n from billing.member_payments where tenant_id = $1', [tenant.tenantId])).toBe(1);
    const retry = await send(tenant, 'POST', '/inventory/members/manual-payment', JSON.parse(body), { 'Idempotency-Key': key });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ memberId: createMember.id, status: 'SUCCEEDED', amountCents: 4900 });
    const again = await send(tenant, 'POST', '/inventory/members/manual-payment', JSON.parse(body), { 'Idempotency-Key': key });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(retry.body);
    expect(await count('select count(*)::int as n from billing.member_payments where tenant_id = $1', [tenant.tenantId])).toBe(1);
    const reused = await send(tenant, 'POST', '/inventory/members/manual-payment', { ...JSON.parse(body), comment: 'other' }, { 'Idempotency-Key': key });
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual({ detail: [{ loc: ['header', 'idempotency-key'], msg: 'Value error, this key was already used for a different request', type: 'value_error' }] });
  });

  it('replays a gift card activation and a payment method creation', async () => {
    const tenant = await createTestTenant('Retry 2');
    const card = await issueCard(tenant, { initialValueCents: 1000, suppressRecipientNotification: true });
    const path = `/billing/gift-cards/issued/${card.id}/activate`;
    const first = await send(tenant, 'POST', path, { sendNotification: false }, { 'Idempotency-Key': 'act-1' });
    const replay = await send(tenant, 'POST', path, { sendNotification: false }, { 'Idempotency-Key': 'act-1' });
    expect([first.status, replay.status]).toEqual([200, 200]);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect((await send(tenant, 'POST', path, { sendNotification: false }, { 'Idempotency-Key': 'act-2' })).status).toBe(409);
    expect(await count('select count(*)::int as n from billing.gift_card_transactions where tenant_id = $1', [tenant.tenantId])).toBe(1);

    const patient = await createPatient(tenant);
    const body = cardBody();
    const created = await send(tenant, 'POST', `/user/patient/payment-methods/create?patient_id=${patient}`, body, { 'Idempotency-Key': 'pm-1' });
    const replayed = await send(tenant, 'POST', `/user/patient/payment-methods/create?patient_id=${patient}`, body, { 'Idempotency-Key': 'pm-1' });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(created.body);
  });

  it('keeps no refusal: a payment refused by a domain rule (422) is corrected and sent again under the same key', async () => {
    const tenant = await createTestTenant('Retry refused');
    const [patient, other] = [await createPatient(tenant), await createPatient(tenant, { firstName: 'Other' })];
    const path = `/user/patient/payment-methods/create?patient_id=`;
    const mine = (await send(tenant, 'POST', `${path}${patient}`, cardBody())).body;
    const theirs = (await send(tenant, 'POST', `${path}${other}`, cardBody())).body;
    const { createMember } = await gql(tenant, 'mutation($i: CreateMemberInput!) { createMember(input: $i) { id } }', {
      i: { patientId: patient, planName: 'Monthly', priceCents: 2500, interval: 'MONTH', status: 'PAST_DUE', balanceDueCents: 2500 },
    });
    const key = `refused-${createMember.id}`;
    const refused = await send(tenant, 'POST', '/inventory/members/manual-payment', { memberId: createMember.id, paymentMethodId: theirs.id }, { 'Idempotency-Key': key });
    expect(refused.status).toBe(422);
    expect(await count('select count(*)::int as n from gateway.idempotency_keys where tenant_id = $1 and key = $2', [tenant.tenantId, key])).toBe(0);
    const corrected = await send(tenant, 'POST', '/inventory/members/manual-payment', { memberId: createMember.id, paymentMethodId: mine.id }, { 'Idempotency-Key': key });
    expect(corrected.status).toBe(200);
    expect(corrected.headers.get('idempotent-replayed')).toBeNull();
    expect(corrected.body).toMatchObject({ memberId: createMember.id, status: 'SUCCEEDED', amountCents: 2500 });
    const replay = await send(tenant, 'POST', '/inventory/members/manual-payment', { memberId: createMember.id, paymentMethodId: mine.id }, { 'Idempotency-Key': key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(corrected.body);
    expect(await count('select count(*)::int as n from billing.member_payments where tenant_id = $1', [tenant.tenantId])).toBe(1);
  });

  it('answers a retry whose first answer was lost (the key released, never stored) with the payment made under the key', async () => {
    const tenant = await createTestTenant('Retry lost');
    const patient = await createPatient(tenant);
    const card = (await send(tenant, 'POST', `/user/patient/payment-methods/create?patient_id=${patient}`, cardBody())).body;
    const { createMember } = await gql(tenant, 'mutation($i: CreateMemberInput!) { createMember(input: $i) { id } }', {
      i: { patientId: patient, planName: 'Monthly', priceCents: 3100, interval: 'MONTH', status: 'PAST_DUE', balanceDueCents: 3100 },
    });
    const key = `lost-${createMember.id}`;
    const payment = { memberId: createMember.id, paymentMethodId: card.id };
    const first = await send(tenant, 'POST', '/inventory/members/manual-payment', payment, { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    // The gateway died before storing the answer and its claim was released (test/gateway/idempotency-lost-answer.test.ts waits for the release itself).
    await count('with gone as (delete from gateway.idempotency_keys where tenant_id = $1 and key = $2 returning 1) select count(*)::int as n from gone', [tenant.tenantId, key]);
    const retry = await send(tenant, 'POST', '/inventory/members/manual-payment', payment, { 'Idempotency-Key': key });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.body).toEqual(first.body);
    expect(await count('select count(*)::int as n from billing.member_payments where tenant_id = $1', [tenant.tenantId])).toBe(1);
  });
});
