import { createTestTenant, type TestTenant } from '../utils/e2e';
import { createPatient, gql, issueCard, mailsMentioning, send } from '../subgraphs/billing/rest-kit';
import { eventually } from '../utils/eventually';

const activatePath = (id: string) => `/billing/gift-cards/issued/${id}/activate`;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const READ = 'query($id: ID!) { issuedGiftCard(id: $id) { status notificationSentAt scheduledSendAt transactions { type } } }';

describe(`gift card activation (${process.env.E2E_MODE} mode)`, () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTestTenant('Gift Cards');
  });

  it('activates a PENDING card: the whole card as it is after activation, and the recipient is e-mailed', async () => {
    const buyer = await createPatient(tenant, { firstName: 'Bo', lastName: 'Buyer', email: 'bo@example.com' });
    const card = await issueCard(tenant, { initialValueCents: 5000, purchasingPatientId: buyer, recipientPatientName: 'Rae Recipient', recipientPatientEmail: 'rae@example.com', recipientNote: 'Enjoy a massage' });
    const res = await send(tenant, 'POST', activatePath(card.id));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: card.id,
      code: card.code,
      initialValue: 5000,
      currentBalance: 5000,
      isActive: true,
      status: 'ACTIVE',
      createdDate: expect.stringMatching(ISO),
      activatedAt: expect.stringMatching(ISO),
      scheduledSendDate: null,
      notificationSentAt: null,
      updatedDate: expect.stringMatching(ISO),
      purchasingPatientId: buyer,
      purchasingPatientName: 'Bo Buyer',
      purchasingPatientEmail: 'bo@example.com',
      purchasingPatientPhone: null,
      recipientPatientId: null,
      recipientPatientName: 'Rae Recipient',
      recipientPatientEmail: 'rae@example.com',
      recipientPatientPhone: null,
      recipientNote: 'Enjoy a massage',
      chargeItemId: null,
      suppressRecipientNotification: false,
      transactions: [{ id: expect.any(String), type: 'ACTIVATION', amountCents: 5000, balanceAfterCents: 5000, createdAt: expect.stringMatching(ISO) }],
    });
    const mails = await eventually(() => (mailsMentioning(card.code).length ? mailsMentioning(card.code) : null));
    expect(mails).toHaveLength(1);
    const [mail] = mails!;
    expect(mail).toContain('To: rae@example.com');
    expect(mail).toContain('Bo Buyer has sent you a gift card worth 50.00');
    const read = await eventually(async () => {
      const current = (await gql(tenant, READ, { id: card.id })).issuedGiftCard;
      return current.notificationSentAt ? current : null;
    });
    expect(read?.notificationSentAt).toMatch(ISO);
  });

  it('answers 409 {"detail": "Gift card is not pending"} to exactly nineteen of twenty concurrent activations', async () => {
    const card = await issueCard(tenant, { initialValueCents: 2500, recipientPatientEmail: 'race@example.com' });
    const results = await Promise.all(Array.from({ length: 20 }, () => send(tenant, 'POST', activatePath(card.id), { sendNotification: false })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const conflicts = results.filter((r) => r.status === 409);
    expect(conflicts).toHaveLength(19);
    for (const r of conflicts) expect(r.body).toEqual({ detail: 'Gift card is not pending' });
    expect((await gql(tenant, READ, { id: card.id })).issuedGiftCard.transactions).toEqual([{ type: 'ACTIVATION' }]);
  });

  it('sends nothing with sendNotification false, or for a card that suppresses it', async () => {
    const quiet = await issueCard(tenant, { initialValueCents: 1000, recipientPatientEmail: 'quiet@example.com' });
    const suppressed = await issueCard(tenant, { initialValueCents: 1000, recipientPatientEmail: 'sup@example.com', suppressRecipientNotification: true });
    expect((await send(tenant, 'POST', activatePath(quiet.id), { sendNotification: false })).status).toBe(200);
    expect((await send(tenant, 'POST', activatePath(suppressed.id), {})).status).toBe(200);
    const control = await issueCard(tenant, { initialValueCents: 1000, recipientPatientEmail: 'control@example.com' });
    await send(tenant, 'POST', activatePath(control.id), { sendNotification: true });
    await eventually(() => mailsMentioning(control.code).length > 0);
    expect(mailsMentioning(quiet.code)).toEqual([]);
    expect(mailsMentioning(suppressed.code)).toEqual([]);
    expect((await gql(tenant, READ, { id: quiet.id })).issuedGiftCard.notificationSentAt).toBeNull();
  });

  it('holds the e-mail until a future scheduledSendAt', async () => {
    const at = new Date(Date.now() + 2_000);
    const card = await issueCard(tenant, { initialValueCents: 1000, recipientPatientEmail: 'later@example.com', scheduledSendAt: at.toISOString() });
    expect((await send(tenant, 'POST', activatePath(card.id))).status).toBe(200);
    // The file is written before the sender's transaction records notificationSentAt: wait for both.
    await eventually(() => mailsMentioning(card.code).length > 0);
    const sentAt = await eventually(async () => (await gql(tenant, READ, { id: card.id })).issuedGiftCard.notificationSentAt);
    expect(new Date(sentAt).getTime()).toBeGreaterThanOrEqual(at.getTime());
  });

  it("answers 404 for unknown cards and other tenants' alike, of any shape", async () => {
    const other = await createTestTenant('Gift Cards B');
    const theirs = await issueCard(other, { initialValueCents: 1000, suppressRecipientNotification: true });
    for (const id of [theirs.id, '00000000-0000-4000-8000-000000000000', 'GC-1']) {
      const res = await send(tenant, 'POST', activatePath(id));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Gift card not found' });
    }
    const still = await gql(other, READ, { id: theirs.id });
    expect(still.issuedGiftCard.status).toBe('PENDING');
  });

  it('answers 422 with input and ctx for bad bodies, and leaves the card PENDING', async () => {
    const card = await issueCard(tenant, { initialValueCents: 1000, suppressRecipientNotification: true });
    const path = activatePath(card.id);
    expect((await send(tenant, 'POST', path, { sendNotification: 'perhaps' })).body).toEqual({
      detail: [{ type: 'bool_parsing', loc: ['body', 'sendNotification'], msg: 'Input should be a valid boolean, unable to interpret input', input: 'perhaps' }],
    });
    expect((await send(tenant, 'POST', path, { sendNotification: null })).body).toEqual({
      detail: [{ type: 'bool_type', loc: ['body', 'sendNotification'], msg: 'Input should be a valid boolean', input: null }],
    });
    expect((await send(tenant, 'POST', path, { notify: true })).body).toEqual({ detail: [{ type: 'extra_forbidden', loc: ['body', 'notify'], msg: 'Extra inputs are not permitted', input: true }] });
    expect((await send(tenant, 'POST', path, [true])).body).toEqual({
      detail: [{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: [true] }],
    });
    expect((await send(tenant, 'POST', path, '{"sendNotification": tru}')).body).toEqual({
      detail: [{ type: 'json_invalid', loc: ['body', 21], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting value' } }],
    });
    expect((await gql(tenant, READ, { id: card.id })).issuedGiftCard.status).toBe('PENDING');
  });

  it('lists issued cards by status through GraphQL', async () => {
    const own = await createTestTenant('Gift Cards list');
    const a = await issueCard(own, { initialValueCents: 100, suppressRecipientNotification: true });
    await issueCard(own, { initialValueCents: 200, suppressRecipientNotification: true });
    await send(own, 'POST', activatePath(a.id));
    const data = await gql(own, '{ active: issuedGiftCards(status: ACTIVE) { totalCount nodes { id currentBalanceCents } } all: issuedGiftCards { totalCount pageInfo { hasNextPage } } }');
    expect(data).toEqual({ active: { totalCount: 1, nodes: [{ id: a.id, currentBalanceCents: 100 }] }, all: { totalCount: 2, pageInfo: { hasNextPage: false } } });
  });
});
