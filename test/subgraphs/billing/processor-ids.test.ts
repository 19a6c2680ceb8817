import { randomUUID } from 'node:crypto';
import type { AbstractSqlDriver } from '@mikro-orm/knex';
import { Client } from 'pg';
import { Migration20261207000000_processor_ids_across_tenants as ProcessorIdsMigration } from '../../../subgraphs/billing/migrations/Migration20261207000000_processor_ids_across_tenants';
import { codeOf, issuesOf, startBillingKit, type BillingKit } from './billing-kit';

const ACCOUNT = 'mutation($i: CreateMerchantAccountInput!) { createMerchantAccount(input: $i) { id } }';
const PM = 'mutation($p: ID!, $i: CreatePaymentMethodInput!) { createPatientPaymentMethod(patientId: $p, input: $i) { id } }';
const MEMBER = 'mutation($i: CreateMemberInput!) { createMember(input: $i) { id } }';
const PAY = 'mutation($i: MemberManualPaymentInput!) { makeMemberManualPayment(input: $i) { paymentId status } }';
const fees = { cardProcessingFee: 2.9, perTransactionFeeCents: 30, inPersonCardProcessingFee: 2.6, inPersonPerTransactionFeeCents: 10 };
const card = (paymentMethodId: string) => ({ paymentMethodId, methodType: 'CARD', card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2035 } });

/** Issue 18, finding 13: a processor's id is one tenant's, also when tenants race for it, and rows from before are handled. */
describe('billing subgraph: processor ids across tenants (real PostgreSQL)', () => {
  let kit: BillingKit;
  const db = new Client({ connectionString: process.env.DATABASE_URL });
  beforeAll(async () => {
    kit = await startBillingKit();
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await kit.close();
  });

  it('lets exactly one of several tenants racing for a merchant account id have it; the others get the same 409', async () => {
    const tenants = await Promise.all([1, 2, 3, 4, 5].map((i) => kit.tenant(`Race ${i}`)));
    const processorAccountId = `acct_race_${randomUUID()}`;
    const results = await Promise.all(tenants.map((t) => kit.run(t, ACCOUNT, { i: { name: 'Racing', processorAccountId, ...fees } })));
    expect(results.filter((r) => !r.errors)).toHaveLength(1);
    for (const refused of results.filter((r) => r.errors)) {
      expect(codeOf(refused)).toBe('CONFLICT');
      expect(refused.errors![0].message).toBe('A merchant account with this processorAccountId already exists');
    }
    expect((await db.query('select count(*)::int as n from billing.merchant_accounts where processor_account_id = $1', [processorAccountId])).rows[0].n).toBe(1);
  });

  it('lets exactly one of several tenants racing for a payment method token have it', async () => {
    const tenants = await Promise.all([1, 2, 3, 4].map((i) => kit.tenant(`Token race ${i}`)));
    const patients = await Promise.all(tenants.map((t) => kit.patient(t)));
    const token = `pm_race_${randomUUID()}`;
    const results = await Promise.all(tenants.map((t, i) => kit.run(t, PM, { p: patients[i], i: card(token) })));
    expect(results.filter((r) => !r.errors)).toHaveLength(1);
    expect(results.filter((r) => r.errors).map(codeOf)).toEqual(['CONFLICT', 'CONFLICT', 'CONFLICT']);
  });

  it('does not charge a token that another tenant registered first (a row the migration marked as disputed)', async () => {
    const [a, b] = [await kit.tenant('Owner'), await kit.tenant('Late')];
    const [patientA, patientB] = [await kit.patient(a), await kit.patient(b)];
    const token = `pm_disputed_${randomUUID()}`;
    expect((await kit.run(a, PM, { p: patientA, i: card(token) })).errors).toBeUndefined();
    // B's copy of A's token, as registered before tokens were one tenant's and marked by the migration.
    const copy = randomUUID();
    await db.query(
      `insert into billing.payment_methods (id, tenant_id, patient_id, type, processor_payment_method_id, last4, is_default, processor_id_disputed)
       values ($1, $2, $3, 'CARD', $4, '4242', true, true)`,
      [copy, b, patientB, token],
    );
    const member = await kit.run(b, MEMBER, { i: { patientId: patientB, planName: 'Monthly', priceCents: 1000, interval: 'MONTH', status: 'PAST_DUE', balanceDueCents: 1000 } });
    const refused = await kit.run(b, PAY, { i: { memberId: member.data.createMember.id, paymentMethodId: copy } });
    expect(issuesOf(refused)).toEqual([{ type: 'value_error', loc: ['input', 'paymentMethodId'], msg: 'Value error, the payment method cannot be charged until support has confirmed its processor token' }]);
    expect((await db.query('select count(*)::int as n from billing.member_payments where tenant_id = $1', [b])).rows[0].n).toBe(0);
  });

  it('migrates a database where tenants already share ids: the earliest keeps it, later ones are marked, nothing fails', async () => {
    const migration = new ProcessorIdsMigration(kit.billing.orm.em.getDriver() as unknown as AbstractSqlDriver, kit.billing.orm.config);
    const sql = async (step: 'up' | 'down') => {
      migration.reset();
      await migration[step]();
      return [...migration.getQueries()] as string[];
    };
    const [up, down] = [await sql('up'), await sql('down')];
    const [first, second, third] = [randomUUID(), randomUUID(), randomUUID()];
    const shared = `acct_shared_${randomUUID()}`;
    // In one transaction, rolled back: the tables as they were before the migration, with shared ids.
    await db.query('begin');
    try {
      for (const statement of down) await db.query(statement);
      const insert = `insert into billing.merchant_accounts (id, tenant_id, processor_account_id, name, created_at) values ($1, $2, $3, 'x', $4)`;
      await db.query(insert, [randomUUID(), first, shared, '2026-01-01T00:00:00Z']);
      await db.query(insert, [randomUUID(), second, shared, '2026-02-01T00:00:00Z']);
      await db.query(insert, [randomUUID(), third, shared, '2026-03-01T00:00:00Z']);
      for (const statement of up) await db.query(statement);
      const rows = await db.query('select tenant_id, processor_id_disputed from billing.merchant_accounts where processor_account_id = $1 order by created_at', [shared]);
      expect(rows.rows.map((r) => [r.tenant_id, r.processor_id_disputed])).toEqual([[first, false], [second, true], [third, true]]);
      // The index now refuses a further tenant.
      await expect(db.query(`insert into billing.merchant_accounts (id, tenant_id, processor_account_id, name) values ($1, $2, $3, 'y')`, [randomUUID(), randomUUID(), shared])).rejects.toMatchObject({ code: '23505' });
    } finally {
      await db.query('rollback');
    }
  });
});
