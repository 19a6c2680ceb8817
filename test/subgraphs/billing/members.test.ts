import { codeOf, issuesOf, startBillingKit, type BillingKit } from './billing-kit';

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
    const method = await kit.run(tenantId, PM, { p: patient, i: { paymentMethodId: `pm_${Math.random()}`, methodType: 'card', card: { brand: 'visa', last4, expMonth: 1, expYear: 2032 } } });
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
    expect(results.filter((r) => r.data?.makeMemberManualPayment?.status === 'SUCCEEDED')).toHaveLength(1);
    expect(results.filter((r) => r.errors)).toHaveLength(2);
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
