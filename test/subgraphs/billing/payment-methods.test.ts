import { jobQueueOf } from '../../../platform/jobs/job-queue';
import { WEBHOOK_EVENT_QUEUE } from '../../../platform/jobs/webhook-event';
import { PaymentMethodRepository } from '../../../subgraphs/billing/repositories/payment-method.repository';
import { codeOf, issuesOf, startBillingKit, type BillingKit } from './billing-kit';

const FIELDS = 'id patientId processorPaymentMethodId fingerprint brand last4 expMonth expYear accountHolderType accountNumberLast4 bankName routingNumber walletType description type isDefault isArchived billingContact { name email } metadata createdDate updatedDate';
const CREATE = `mutation($p: ID!, $i: CreatePaymentMethodInput!) { createPatientPaymentMethod(patientId: $p, input: $i) { ${FIELDS} } }`;
const card = (over: Record<string, unknown> = {}) => ({ paymentMethodId: `pm_${Math.random().toString(36).slice(2)}`, methodType: 'CARD', card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2031 }, ...over });

describe('billing subgraph: payment methods (real PostgreSQL)', () => {
  let kit: BillingKit;
  let a: string;
  let b: string;
  let patientA: string;
  let patientB: string;

  beforeAll(async () => {
    kit = await startBillingKit();
    [a, b] = await Promise.all([kit.tenant('PM A'), kit.tenant('PM B')]);
    [patientA, patientB] = await Promise.all([kit.patient(a), kit.patient(b)]);
  });
  afterAll(() => kit.close());

  it("creates a card as the patient's default, and the next one is not", async () => {
    const patient = await kit.patient(a, { firstName: 'Grace' });
    const first = await kit.run(a, CREATE, { p: patient, i: card({ fingerprint: 'fp-1', billingContact: { name: 'Grace H', email: 'g@example.com' }, metadata: { source: 'terminal' } }) });
    expect(first.errors).toBeUndefined();
    expect(first.data.createPatientPaymentMethod).toMatchObject({
      patientId: patient, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2031, type: 'CARD', isDefault: true, isArchived: false,
      description: 'visa ending in 4242', accountNumberLast4: null, routingNumber: null, billingContact: { name: 'Grace H', email: 'g@example.com' }, metadata: { source: 'terminal' },
    });
    const second = await kit.run(a, CREATE, { p: patient, i: card({ fingerprint: 'fp-2' }) });
    expect(second.data.createPatientPaymentMethod.isDefault).toBe(false);
  });

  it('answers the existing record for the same fingerprint, and writes one event per record', async () => {
    const patient = await kit.patient(a);
    const one = await kit.run(a, CREATE, { p: patient, i: card({ fingerprint: 'same' }) });
    const again = await kit.run(a, CREATE, { p: patient, i: card({ fingerprint: 'same' }) });
    expect(again.data.createPatientPaymentMethod.id).toBe(one.data.createPatientPaymentMethod.id);
    // The events sent to the tenant subgraph's webhook queue (whether relayed yet or not).
    const events = await jobQueueOf(kit.billing.orm.em as never).boss.findJobs<{ type: string; data: unknown }>(WEBHOOK_EVENT_QUEUE, { data: { tenantId: a, data: { patientId: patient } } });
    expect(events.map((e) => ({ type: e.data.type, data: e.data.data }))).toEqual([
      { type: 'payment_method.created', data: expect.objectContaining({ paymentMethodId: one.data.createPatientPaymentMethod.id, isDefault: true, last4: '4242' }) },
    ]);
  });

  it('keeps ACH digits as text in GraphQL (leading zeros survive)', async () => {
    const result = await kit.run(a, CREATE, { p: patientA, i: { paymentMethodId: `pm_ach_1_${Math.random().toString(36).slice(2)}`, methodType: 'ACH', ach: { accountHolderType: 'INDIVIDUAL', accountNumberLast4: '0042', bankName: 'First Bank', routingNumber: '021000021' } } });
    expect(result.data.createPatientPaymentMethod).toMatchObject({ type: 'ACH', accountNumberLast4: '0042', routingNumber: '021000021', last4: '0042', brand: null });
  });

  it('serialises concurrent creates for one patient: one default, no duplicate fingerprint', async () => {
    const patient = await kit.patient(a);
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => kit.run(a, CREATE, { p: patient, i: card({ fingerprint: i < 3 ? 'dup' : `u${i}` }) })));
    for (const r of results) expect(r.errors).toBeUndefined();
    const ids = new Set(results.map((r) => r.data.createPatientPaymentMethod.id));
    expect(ids.size).toBe(4);
    expect(results.filter((r) => r.data.createPatientPaymentMethod.isDefault).map((r) => r.data.createPatientPaymentMethod.id).filter((id, i, all) => all.indexOf(id) === i)).toHaveLength(1);
  });

  it("is NOT_FOUND for unknown and other tenants' patients, of any shape, after validation", async () => {
    for (const p of [patientB, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const result = await kit.run(a, CREATE, { p, i: card() });
      expect(codeOf(result)).toBe('NOT_FOUND');
      expect(result.errors?.[0].message).toBe('Patient not found');
    }
    const invalid = await kit.run(a, CREATE, { p: patientB, i: card({ card: { brand: 'visa', last4: '4242', expMonth: 13, expYear: 2035 } }) });
    expect(issuesOf(invalid)[0].loc).toEqual(['input', 'card', 'expMonth']);
  });

  it('refuses a processor token that already belongs to another patient (409)', async () => {
    const [p1, p2] = [await kit.patient(a), await kit.patient(a)];
    const shared = `pm_shared_${Math.random().toString(36).slice(2)}`;
    await kit.run(a, CREATE, { p: p1, i: card({ paymentMethodId: shared }) });
    const clash = await kit.run(a, CREATE, { p: p2, i: card({ paymentMethodId: shared }) });
    expect(codeOf(clash)).toBe('CONFLICT');
  });

  it('extends Patient with paymentMethods through _entities, in one batch, for the calling tenant only', async () => {
    const [p1, p2] = [await kit.patient(a), await kit.patient(a)];
    await kit.run(a, CREATE, { p: p1, i: card() });
    await kit.run(a, CREATE, { p: p2, i: card() });
    await kit.run(b, CREATE, { p: patientB, i: card() });
    const query = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Patient { id paymentMethods { patientId last4 } } } }';
    const reps = [p1, p2, patientB, 'x'].map((id) => ({ __typename: 'Patient', id }));
    const batch = jest.spyOn(PaymentMethodRepository.prototype, 'ofPatients');
    const result = await kit.run(a, query, { r: reps });
    expect(result.errors).toBeUndefined();
    expect(batch).toHaveBeenCalledTimes(1);
    batch.mockRestore();
    expect(result.data._entities).toEqual([
      { id: p1, paymentMethods: [{ patientId: p1, last4: '4242' }] },
      { id: p2, paymentMethods: [{ patientId: p2, last4: '4242' }] },
      { id: patientB, paymentMethods: [] },
      { id: 'x', paymentMethods: [] },
    ]);
  });
});
