import { createTestTenant, type TestTenant } from '../utils/e2e';
import { addCard, createPatient, gql, send } from '../subgraphs/billing/rest-kit';

const PATH = '/inventory/members/manual-payment';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MEMBER = 'mutation($i: CreateMemberInput!) { createMember(input: $i) { id } }';
const READ = 'query($id: ID!) { member(id: $id) { status balanceDueCents patient { firstName } payments { status amountCents } } }';

/** A patient with a card ending in `last4` and a PAST_DUE member owing 49.00. */
async function memberWithCard(tenant: TestTenant, last4 = '4242') {
  const patient = await createPatient(tenant, { firstName: 'Mia' });
  const card = await addCard(tenant, patient, { card: { brand: 'visa', last4, expMonth: 12, expYear: new Date().getUTCFullYear() + 2 } });
  const { createMember } = await gql(tenant, MEMBER, { i: { patientId: patient, planName: 'Wellness monthly', priceCents: 4900, interval: 'MONTH', status: 'PAST_DUE', balanceDueCents: 4900 } });
  return { patient, cardId: card.id as string, memberId: createMember.id as string };
}

describe(`POST /inventory/members/manual-payment (${process.env.E2E_MODE} mode)`, () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTestTenant('Members');
  });

  it('charges the balance due: SUCCEEDED, balance cleared, PAST_DUE becomes ACTIVE', async () => {
    const { memberId, cardId } = await memberWithCard(tenant);
    const res = await send(tenant, 'POST', PATH, { memberId, paymentMethodId: cardId, comment: 'Paid at the desk' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ paymentId: expect.stringMatching(/^[0-9a-f-]{36}$/), memberId, amountCents: 4900, status: 'SUCCEEDED', failureReason: null, comment: 'Paid at the desk', createdAt: expect.stringMatching(ISO) });
    const { member } = await gql(tenant, READ, { id: memberId });
    expect(member).toEqual({ status: 'ACTIVE', balanceDueCents: 0, patient: { firstName: 'Mia' }, payments: [{ status: 'SUCCEEDED', amountCents: 4900 }] });
    const nothingDue = await send(tenant, 'POST', PATH, { memberId, paymentMethodId: cardId });
    expect(nothingDue.status).toBe(422);
    expect(nothingDue.body).toEqual({ detail: [{ loc: ['body', 'memberId'], msg: 'Value error, the member has no balance due', type: 'value_error' }] });
  });

  it('reports a sandbox decline (card ending 0002) as 200 FAILED card_declined, balance kept', async () => {
    const { memberId, cardId } = await memberWithCard(tenant, '0002');
    const res = await send(tenant, 'POST', PATH, { memberId, paymentMethodId: cardId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'FAILED', failureReason: 'card_declined', amountCents: 4900, comment: null });
    expect((await gql(tenant, READ, { id: memberId })).member).toMatchObject({ status: 'PAST_DUE', balanceDueCents: 4900 });
  });

  it('answers 422 with loc, msg and type only', async () => {
    const { memberId, cardId } = await memberWithCard(tenant);
    const other = await memberWithCard(tenant);
    const post = (body?: unknown) => send(tenant, 'POST', PATH, body);
    expect((await post()).body).toEqual({ detail: [{ loc: ['body'], msg: 'Field required', type: 'missing' }] });
    expect((await post({})).body).toEqual({
      detail: [
        { loc: ['body', 'memberId'], msg: 'Field required', type: 'missing' },
        { loc: ['body', 'paymentMethodId'], msg: 'Field required', type: 'missing' },
      ],
    });
    expect((await post({ memberId: 1, paymentMethodId: cardId, comment: 5, extra: 1 })).body).toEqual({
      detail: [
        { loc: ['body', 'memberId'], msg: 'Input should be a valid string', type: 'string_type' },
        { loc: ['body', 'comment'], msg: 'Input should be a valid string', type: 'string_type' },
        { loc: ['body', 'extra'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
      ],
    });
    expect((await post('{"memberId": }')).body).toEqual({ detail: [{ loc: ['body', 13], msg: 'JSON decode error', type: 'json_invalid' }] });
    expect((await post({ memberId, paymentMethodId: cardId, comment: 'x'.repeat(1001) })).body).toEqual({
      detail: [{ loc: ['body', 'comment'], msg: 'Value error, comment must be at most 1000 characters', type: 'value_error' }],
    });
    expect((await post({ memberId, paymentMethodId: other.cardId })).body).toEqual({
      detail: [{ loc: ['body', 'paymentMethodId'], msg: "Value error, the payment method does not belong to the member's patient", type: 'value_error' }],
    });
    expect((await gql(tenant, READ, { id: memberId })).member.payments).toEqual([]);
  });

  it("answers 404 for unknown members and payment methods, and other tenants' alike", async () => {
    const mine = await memberWithCard(tenant);
    const otherTenant = await createTestTenant('Members B');
    const theirs = await memberWithCard(otherTenant);
    for (const memberId of [theirs.memberId, '00000000-0000-4000-8000-000000000000', 'M-1']) {
      const res = await send(tenant, 'POST', PATH, { memberId, paymentMethodId: mine.cardId });
      expect([res.status, res.body]).toEqual([404, { detail: 'Member not found' }]);
    }
    for (const paymentMethodId of [theirs.cardId, 'pm_x']) {
      const res = await send(tenant, 'POST', PATH, { memberId: mine.memberId, paymentMethodId });
      expect([res.status, res.body]).toEqual([404, { detail: 'Payment method not found' }]);
    }
    const read = await tenant.graphql(READ, { id: theirs.memberId });
    expect(read.body.errors[0]).toMatchObject({ message: 'Member not found', extensions: { code: 'NOT_FOUND' } });
  });
});
