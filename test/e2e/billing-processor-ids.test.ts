import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createTestTenant, type TestTenant } from '../utils/e2e';
import { cardBody, createPatient, gql, send } from '../subgraphs/billing/rest-kit';

const CREATE = 'mutation($i: CreateMerchantAccountInput!) { createMerchantAccount(input: $i) { id name } }';
const PM_PATH = '/user/patient/payment-methods/create';
const fees = { cardProcessingFee: 2.9, perTransactionFeeCents: 30, inPersonCardProcessingFee: 2.6, inPersonPerTransactionFeeCents: 10 };

/** Nothing in a refusal may say whose the id is. */
function expectNothingOf(tenant: TestTenant, name: string, text: string): void {
  expect(text).not.toContain(tenant.tenantId);
  expect(text).not.toContain(name);
}

/**
 * Issue 18, finding 13: processor ids (merchant accounts, payment method tokens) are one tenant's.
 * Sandbox ids are predictable, so tenant B could register A's account or A's card token as its own
 * and, with one platform account at a real processor, charge A's patient's card.
 */
describe(`processor ids are bound to one tenant (${process.env.E2E_MODE} mode)`, () => {
  const nameA = `Clinic A ${randomUUID().slice(0, 8)}`;
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    [a, b] = await Promise.all([createTestTenant(nameA), createTestTenant('Clinic B')]);
  });

  it("refuses another tenant's merchant account id, given or opened under a key, and A's retry still answers A's account", async () => {
    const given = `acct_given_${randomUUID()}`;
    const mine = await gql(a, CREATE, { i: { name: 'A main', processorAccountId: given, ...fees } });
    expect(mine.createMerchantAccount.id).toBe(given);
    const opened = (await gql(a, CREATE, { i: { name: 'A opened', idempotencyKey: 'open-1', ...fees } })).createMerchantAccount.id;

    for (const processorAccountId of [given, opened]) {
      const refused = await b.graphql(CREATE, { i: { name: 'B', processorAccountId, ...fees } });
      expect(refused.body.errors[0]).toMatchObject({ message: 'A merchant account with this processorAccountId already exists', extensions: { code: 'CONFLICT' } });
      expectNothingOf(a, nameA, refused.text);
    }
    expect((await b.get('/billing/merchant_accounts')).body).toEqual([]);

    // A's own retry of the keyed opening answers A's account; B's same key is its own, another account.
    const retried = await gql(a, CREATE, { i: { name: 'A opened', idempotencyKey: 'open-1', ...fees } });
    expect(retried.createMerchantAccount).toEqual({ id: opened, name: 'A opened' });
    const bOpened = await gql(b, CREATE, { i: { name: 'B opened', idempotencyKey: 'open-1', ...fees } });
    expect(bOpened.createMerchantAccount.id).not.toBe(opened);
    expect((await a.get('/billing/merchant_accounts')).body.map((m: { id: string }) => m.id).sort()).toEqual([given, opened].sort());
  });

  it("refuses another tenant's payment method token (409), and A's own retry answers A's record", async () => {
    const [patientA, patientB] = await Promise.all([createPatient(a), createPatient(b)]);
    const body = cardBody({ paymentMethodId: `pm_${randomUUID()}`, fingerprint: `fp_${randomUUID()}` });
    const created = await send(a, 'POST', `${PM_PATH}?patient_id=${patientA}`, body);
    expect(created.status).toBe(200);

    const refused = await send(b, 'POST', `${PM_PATH}?patient_id=${patientB}`, body);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ detail: 'This paymentMethodId belongs to another patient' });
    expectNothingOf(a, nameA, refused.text);
    const viaGraphql = await b.graphql('mutation($p: ID!, $i: CreatePaymentMethodInput!) { createPatientPaymentMethod(patientId: $p, input: $i) { id } }', {
      p: patientB, i: { ...body, methodType: 'CARD' },
    });
    expect(viaGraphql.body.errors[0].extensions.code).toBe('CONFLICT');
    expectNothingOf(a, nameA, viaGraphql.text);
    const db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    try {
      expect((await db.query('select count(*)::int as n from billing.payment_methods where tenant_id = $1', [b.tenantId])).rows[0].n).toBe(0);
    } finally {
      await db.end();
    }

    const again = await send(a, 'POST', `${PM_PATH}?patient_id=${patientA}`, body);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(created.body.id);
  });
});
