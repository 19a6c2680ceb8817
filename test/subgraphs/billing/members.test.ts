import { ProcessorUnreachableError, type ChargeRequest, type ChargeResult, type OpenAccountRequest, type PaymentProcessor } from '../../../subgraphs/billing';
import { SandboxPaymentProcessor, type BillingDeps } from '../../../subgraphs/billing';
import { codeOf, issuesOf, startBillingKit, type BillingKit } from './billing-kit';

/**
 * A processor that honours idempotency keys the way real ones do (the same key answers the first
 * outcome, with no second charge) and can lose its next answer after charging, as a dropped
 * connection or a crash after the call would.
 */
class KeyedProcessor implements PaymentProcessor {
  readonly calls: string[] = [];
  readonly charges = new Map<string, ChargeResult>();
  private readonly sandbox = new SandboxPaymentProcessor();
  loseNextAnswer = false;

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    this.calls.push(request.idempotencyKey);
    const outcome = this.charges.get(request.idempotencyKey) ?? (await this.sandbox.charge(request));
    this.charges.set(request.idempotencyKey, outcome);
    if (this.loseNextAnswer) {
      this.loseNextAnswer = false;
      throw new ProcessorUnreachableError('socket hang up');
    }
    return outcome;
  }

  createMerchantAccount(request: OpenAccountRequest) {
    return this.sandbox.createMerchantAccount(request);
  }
}

const PM = 'mutation($p: ID!, $i: CreatePaymentMethodInput!) { createPatientPaymentMethod(patientId: $p, input: $i) { id } }';
const MEMBER = 'mutation($i: CreateMemberInput!) { createMember(input: $i) { id patientId planName priceCents interval status balanceDueCents payments { paymentId } } }';
const PAY = 'mutation($i: MemberManualPaymentInput!) { makeMemberManualPayment(input: $i) { paymentId memberId paymentMethodId amountCents status failureReason comment createdAt } }';
const READ = 'query($id: ID!) { member(id: $id) { status balanceDueCents payments { paymentId status amountCents failureReason } } }';

describe('billing subgraph: members and manual payments (real PostgreSQL, sandbox processor)', () => {
  let kit: BillingKit;
  let a: string;
  let b: string;

  beforeAll(async () => {
    kit = await startBillingKit();
    [a, b] = await Promise.all([kit.tenant('Members A'), kit.tenant('Members B')]);
  });
  afterAll(() => kit.close());

  /** A patient with a card ending in `last4`, and a member owing `balance`. */
  async function setup(tenantId: string, last4 = '4242', balance = 4900, status = 'PAST_DUE') {
    const patient = await kit.patient(tenantId);
    const method = await kit.run(tenantId, PM, { p: patient, i: { paymentMethodId: `pm_${Math.random()}`, methodType: 'CARD', card: { brand: 'visa', last4, expMonth: 1, expYear: 2032 } } });
    const member = await kit.run(tenantId, MEMBER, { i: { patientId: patient, planName: 'Wellness monthly', priceCents: 4900, interval: 'MONTH', status, balanceDueCents: balance } });
    expect(member.errors).toBeUndefined();
    return { patient, methodId: method.data.createPatientPaymentMethod.id as string, memberId: member.data.createMember.id as string };
  }

  it('charges the balance: SUCCEEDED clears it and PAST_DUE becomes ACTIVE', async () => {
    const { methodId, memberId } = await setup(a);
    const paid = await kit.run(a, PAY, { i: { memberId, paymentMethodId: methodId, comment: 'Front desk' } });
    expect(paid.errors).toBeUndefined();
    expect(paid.data.makeMemberManualPayment).toMatchObject({ memberId, paymentMethodId: methodId, amountCents: 4900, status: 'SUCCEEDED', failureReason: null, comment: 'Front desk' });
    const read = await kit.run(a, READ, { id: memberId });
    expect(read.data.member).toEqual({ status: 'ACTIVE', balanceDueCents: 0, payments: [{ paymentId: paid.data.makeMemberManualPayment.paymentId, status: 'SUCCEEDED', amountCents: 4900, failureReason: null }] });
    const again = await kit.run(a, PAY, { i: { memberId, paymentMethodId: methodId } });
    expect(issuesOf(again)).toEqual([{ type: 'value_error', loc: ['input', 'memberId'], msg: 'Value error, the member has no balance due' }]);
  });

  it.each([
    ['0002', 'card_declined'],
    ['9995', 'insufficient_funds'],
  ])('records a sandbox decline (last4 %s) as FAILED with %s, leaving the balance', async (last4, reason) => {
    const { methodId, memberId } = await setup(a, last4);
    const paid = await kit.run(a, PAY, { i: { memberId, paymentMethodId: methodId } });
    expect(paid.data.makeMemberManualPayment).toMatchObject({ status: 'FAILED', failureReason: reason, amountCents: 4900 });
    expect((await kit.run(a, READ, { id: memberId })).data.member).toMatchObject({ status: 'PAST_DUE', balanceDueCents: 4900 });
  });

  it("refuses another patient's payment method (422) and unknown or foreign ids (404)", async () => {
    const one = await setup(a);
    const other = await setup(a);
    const foreign = await setup(b);
    const wrong = await kit.run(a, PAY, { i: { memberId: one.memberId, paymentMethodId: other.methodId } });
    expect(issuesOf(wrong)).toEqual([{ type: 'value_error', loc: ['input', 'paymentMethodId'], msg: "Value error, the payment method does not belong to the member's patient" }]);
    for (const memberId of [foreign.memberId, '00000000-0000-4000-8000-000000000000', 'm-1']) {
      const result = await kit.run(a, PAY, { i: { memberId, paymentMethodId: one.methodId } });
      expect([codeOf(result), result.errors?.[0].message]).toEqual(['NOT_FOUND', 'Member not found']);
    }
    for (const paymentMethodId of [foreign.methodId, 'pm-1']) {
      const result = await kit.run(a, PAY, { i: { memberId: one.memberId, paymentMethodId } });
      expect([codeOf(result), result.errors?.[0].message]).toEqual(['NOT_FOUND', 'Payment method not found']);
    }
    expect(codeOf(await kit.run(a, READ, { id: foreign.memberId }))).toBe('NOT_FOUND');
  });

  it('refuses an archived payment method (422)', async () => {
    const { methodId, memberId } = await setup(a);
    await kit.billing.orm.em.getConnection().execute(`update billing.payment_methods set is_archived = true where id = ?`, [methodId]);
    const result = await kit.run(a, PAY, { i: { memberId, paymentMethodId: methodId } });
    expect(issuesOf(result)).toEqual([{ type: 'value_error', loc: ['input', 'paymentMethodId'], msg: 'Value error, the payment method is archived' }]);
  });

  it('charges a member once when two payments race', async () => {
    const { methodId, memberId } = await setup(a);
    const results = await Promise.all([1, 2, 3].map(() => kit.run(a, PAY, { i: { memberId, paymentMethodId: methodId } })));
    // A racer answers the one payment (it settled it, same key), or 409 while it is pending, or 422 once nothing is due.
    const succeeded = results.filter((r) => r.data?.makeMemberManualPayment?.status === 'SUCCEEDED').map((r) => r.data!.makeMemberManualPayment.paymentId);
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    expect(new Set(succeeded).size).toBe(1);
    for (const refused of results.filter((r) => r.errors)) expect(['CONFLICT', 'BAD_USER_INPUT']).toContain(codeOf(refused));
    const read = await kit.run(a, READ, { id: memberId });
    expect(read.data.member).toEqual({ status: 'ACTIVE', balanceDueCents: 0, payments: [{ paymentId: succeeded[0], status: 'SUCCEEDED', amountCents: 4900, failureReason: null }] });
  });

  describe('when the processor charged but its answer was lost', () => {
    let processor: KeyedProcessor;
    beforeEach(() => {
      processor = new KeyedProcessor();
      processor.loseNextAnswer = true;
      (kit.billing.deps as BillingDeps).processor = processor;
    });
    afterEach(() => void ((kit.billing.deps as BillingDeps).processor = new SandboxPaymentProcessor()));

    it('keeps the attempt PENDING, and a retry settles it with the same key: one charge, its answer', async () => {
      const { methodId, memberId } = await setup(a);
      const lost = await kit.run(a, PAY, { i: { memberId, paymentMethodId: methodId } });
      expect([codeOf(lost), lost.errors?.[0].message]).toEqual(['SERVICE_UNAVAILABLE', 'Payment processor unavailable; retry the request']);
      expect((lost.errors?.[0].originalError as Error).cause).toEqual(new ProcessorUnreachableError('socket hang up'));
      const [key] = processor.calls;
      expect((await kit.run(a, READ, { id: memberId })).data.member).toEqual({
        status: 'PAST_DUE', balanceDueCents: 4900, payments: [{ paymentId: key, status: 'PENDING', amountCents: 4900, failureReason: null }],
      });

      const retry = await kit.run(a, PAY, { i: { memberId, paymentMethodId: methodId.toUpperCase() } });
      expect(retry.data.makeMemberManualPayment).toMatchObject({ paymentId: key, status: 'SUCCEEDED', amountCents: 4900 });
      expect(processor.calls).toEqual([key, key]);
      expect(processor.charges.size).toBe(1);
      expect((await kit.run(a, READ, { id: memberId })).data.member).toEqual({
        status: 'ACTIVE', balanceDueCents: 0, payments: [{ paymentId: key, status: 'SUCCEEDED', amountCents: 4900, failureReason: null }],
      });
    });

    it('settles it before a payment with another method, which then finds nothing due (and the settlement stays)', async () => {
      const { patient, methodId, memberId } = await setup(a);
      const second = await kit.run(a, PM, { p: patient, i: { paymentMethodId: `pm_${Math.random()}`, methodType: 'CARD', card: { brand: 'visa', last4: '1881', expMonth: 1, expYear: 2032 } } });
      await kit.run(a, PAY, { i: { memberId, paymentMethodId: methodId } });
      const other = await kit.run(a, PAY, { i: { memberId, paymentMethodId: second.data.createPatientPaymentMethod.id } });
      expect(issuesOf(other)).toEqual([{ type: 'value_error', loc: ['input', 'memberId'], msg: 'Value error, the member has no balance due' }]);
      expect(processor.charges.size).toBe(1);
      expect((await kit.run(a, READ, { id: memberId })).data.member).toMatchObject({ status: 'ACTIVE', balanceDueCents: 0, payments: [{ status: 'SUCCEEDED' }] });
    });

    it('charges anew, under a new key, after a lost decline', async () => {
      const { patient, methodId, memberId } = await setup(a, '0002');
      const second = await kit.run(a, PM, { p: patient, i: { paymentMethodId: `pm_${Math.random()}`, methodType: 'CARD', card: { brand: 'visa', last4: '4242', expMonth: 1, expYear: 2032 } } });
      await kit.run(a, PAY, { i: { memberId, paymentMethodId: methodId } });
      const paid = await kit.run(a, PAY, { i: { memberId, paymentMethodId: second.data.createPatientPaymentMethod.id } });
      expect(paid.data.makeMemberManualPayment).toMatchObject({ status: 'SUCCEEDED', amountCents: 4900 });
      expect(new Set(processor.calls).size).toBe(2);
      const read = await kit.run(a, READ, { id: memberId });
      expect(read.data.member.payments.map((p: { status: string; failureReason: string | null }) => [p.status, p.failureReason])).toEqual([
        ['SUCCEEDED', null],
        ['FAILED', 'card_declined'],
      ]);
    });
  });

  it('validates createMember', async () => {
    const foreignPatient = await kit.patient(b);
    const result = await kit.run(a, MEMBER, { i: { patientId: foreignPatient, planName: '', priceCents: -1, interval: 'YEAR', balanceDueCents: -5 } });
    expect(issuesOf(result).map((i) => [i.type, i.loc.join('.')])).toEqual([
      ['value_error', 'input.patientId'],
      ['value_error', 'input.planName'],
      ['greater_than_equal', 'input.priceCents'],
      ['greater_than_equal', 'input.balanceDueCents'],
    ]);
  });
});
