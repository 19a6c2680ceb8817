import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeOf, issuesOf, startBillingKit, type BillingKit } from './billing-kit';
import { eventually } from '../../utils/eventually';

const CARD = `id code initialValueCents currentBalanceCents isActive status activatedAt scheduledSendAt notificationSentAt
  purchasingPatientId purchasingPatientName purchasingPatientEmail recipientPatientId recipientPatientName recipientPatientEmail recipientNote
  chargeItemId suppressRecipientNotification transactions { id type amountCents balanceAfterCents createdAt }`;
const ISSUE = `mutation($i: IssueGiftCardInput!) { issueGiftCard(input: $i) { ${CARD} } }`;
const ACTIVATE = `mutation($id: ID!, $send: Boolean!) { activateGiftCard(id: $id, sendNotification: $send) { ${CARD} } }`;
const READ = `query($id: ID!) { issuedGiftCard(id: $id) { ${CARD} } }`;

describe('billing subgraph: issued gift cards and their notifications (real PostgreSQL)', () => {
  let kit: BillingKit;
  let a: string;
  let b: string;

  beforeAll(async () => {
    kit = await startBillingKit();
    [a, b] = await Promise.all([kit.tenant('Gift A'), kit.tenant('Gift B')]);
  });
  afterAll(async () => {
    await kit.close();
  });

  const issue = async (tenantId: string, input: Record<string, unknown>) => {
    const result = await kit.run(tenantId, ISSUE, { i: input });
    expect(result.errors).toBeUndefined();
    return result.data.issueGiftCard;
  };
  // The activation queues its e-mail job on the shared job queue; the end-to-end server of this jest
  // run is the sender (billing's e-mail worker), and writes the mail under its data directory.
  const mailDir = join(process.env.E2E_DATA_DIR!, 'mail');
  const mailsFor = (cardCode: string) =>
    (existsSync(mailDir) ? readdirSync(mailDir).map((f) => readFileSync(join(mailDir, f), 'utf8')) : []).filter((m) => m.includes(cardCode));
  /** When the card's notification was recorded as sent (ms), waiting for the sender's commit, which follows the file. */
  // The test server's e-mail worker sends them (its job queue polls every 0.5 s at best): on a loaded CI machine that can take a while.
  const background = { timeoutMs: 30_000 };
  const sentAt = async (id: string) =>
    new Date(await eventually(async () => (await kit.run(a, READ, { id })).data.issuedGiftCard.notificationSentAt as string | null, background)).getTime();
  /** Waits until the card's mail exists. */
  const delivered = (cardCode: string) =>
    eventually(() => {
      const mails = mailsFor(cardCode);
      return mails.length ? mails : null;
    }, background);

  it('issues a PENDING card with a human-friendly code, snapshotting the patients from the directory', async () => {
    const buyer = await kit.patient(a, { firstName: 'Bo', lastName: 'Buyer', email: 'bo@example.com', phone: '+1 503 555 0101' });
    const friend = await kit.patient(a, { firstName: 'Fay', lastName: 'Friend', email: 'fay@example.com' });
    const card = await issue(a, { initialValueCents: 5000, purchasingPatientId: buyer, recipientPatientId: friend, recipientNote: 'Enjoy!' });
    expect(card).toMatchObject({
      status: 'PENDING', isActive: false, initialValueCents: 5000, currentBalanceCents: 0, activatedAt: null, transactions: [],
      purchasingPatientName: 'Bo Buyer', purchasingPatientEmail: 'bo@example.com', recipientPatientName: 'Fay Friend', recipientPatientEmail: 'fay@example.com',
    });
    expect(card.code).toMatch(/^[2-9A-HJKMNP-TW-Z]{4}(-[2-9A-HJKMNP-TW-Z]{4}){3}$/);
  });

  it('validates the issue input, listing every problem', async () => {
    const b1 = await kit.patient(b);
    const result = await kit.run(a, ISSUE, { i: { initialValueCents: 0, purchasingPatientId: b1, recipientPatientEmail: 'nope', recipientNote: 'x'.repeat(1001), chargeItemId: '00000000-0000-4000-8000-000000000000' } });
    expect(issuesOf(result).map((i) => [i.type, i.loc.join('.')])).toEqual([
      ['greater_than_equal', 'input.initialValueCents'],
      ['value_error', 'input.purchasingPatientId'],
      ['value_error', 'input.recipientPatientEmail'],
      ['value_error', 'input.recipientNote'],
      ['value_error', 'input.chargeItemId'],
    ]);
    const c = await kit.tenant('Gift C');
    const location = await kit.location(c);
    const sale = await kit.run(c, 'mutation($i: RecordChargeItemInput!) { recordChargeItem(input: $i) { id } }', {
      i: { locationId: location, itemCategory: 'Gift cards', itemType: 'PRODUCT', itemName: 'Gift card', paymentMedium: 'CARD', grossCents: 100 },
    });
    const foreignSale = await kit.run(a, ISSUE, { i: { initialValueCents: 100, suppressRecipientNotification: true, chargeItemId: sale.data.recordChargeItem.id } });
    expect(issuesOf(foreignSale)).toEqual([{ type: 'value_error', loc: ['input', 'chargeItemId'], msg: 'Value error, unknown charge item' }]);
    const ownSale = await kit.run(c, ISSUE, { i: { initialValueCents: 100, suppressRecipientNotification: true, chargeItemId: sale.data.recordChargeItem.id } });
    expect(ownSale.data.issueGiftCard.chargeItemId).toBe(sale.data.recordChargeItem.id);
    const noEmail = await kit.run(a, ISSUE, { i: { initialValueCents: 100 } });
    expect(issuesOf(noEmail)).toEqual([{ type: 'value_error', loc: ['input', 'recipientPatientEmail'], msg: 'Value error, recipientPatientEmail is required unless suppressRecipientNotification is true' }]);
    await issue(a, { initialValueCents: 100, suppressRecipientNotification: true });
  });

  it('activates once: 20 concurrent activations give one card and nineteen CONFLICTs', async () => {
    const card = await issue(a, { initialValueCents: 2500, recipientPatientEmail: 'race@example.com' });
    const results = await Promise.all(Array.from({ length: 20 }, () => kit.run(a, ACTIVATE, { id: card.id, send: true })));
    const winners = results.filter((r) => !r.errors);
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => codeOf(r) === 'CONFLICT' && r.errors![0].message === 'Gift card is not pending')).toHaveLength(19);
    expect(winners[0].data.activateGiftCard).toMatchObject({ status: 'ACTIVE', isActive: true, currentBalanceCents: 2500, transactions: [{ type: 'ACTIVATION', amountCents: 2500, balanceAfterCents: 2500 }] });
    const read = await kit.run(a, READ, { id: card.id });
    expect(read.data.issuedGiftCard.transactions).toHaveLength(1);
    expect(await delivered(card.code)).toHaveLength(1);
  });

  it('sends the recipient e-mail with the code and sets notificationSentAt', async () => {
    const card = await issue(a, { initialValueCents: 7500, recipientPatientName: 'Rae', recipientPatientEmail: 'rae@example.com', purchasingPatientName: 'Sam', recipientNote: 'Happy birthday' });
    await kit.run(a, ACTIVATE, { id: card.id, send: true });
    const [mail] = await delivered(card.code);
    expect(mail).toContain('To: rae@example.com');
    expect(mail).toMatch(/^From: .*@example\.com>?$/m);
    expect(mail).toContain('Sam has sent you a gift card worth 75.00');
    expect(mail).toContain('Happy birthday');
    expect(await sentAt(card.id)).toBeGreaterThan(0);
  });

  it('sends nothing when sendNotification is false or the card suppresses it', async () => {
    const quiet = await issue(a, { initialValueCents: 1000, recipientPatientEmail: 'q@example.com' });
    const suppressed = await issue(a, { initialValueCents: 1000, recipientPatientEmail: 's@example.com', suppressRecipientNotification: true });
    await kit.run(a, ACTIVATE, { id: quiet.id, send: false });
    await kit.run(a, ACTIVATE, { id: suppressed.id, send: true });
    const control = await issue(a, { initialValueCents: 1000, recipientPatientEmail: 'c@example.com' });
    await kit.run(a, ACTIVATE, { id: control.id, send: true });
    expect(await delivered(control.code)).toHaveLength(1);
    expect(mailsFor(quiet.code)).toEqual([]);
    expect(mailsFor(suppressed.code)).toEqual([]);
    expect((await kit.run(a, READ, { id: quiet.id })).data.issuedGiftCard.notificationSentAt).toBeNull();
  });

  it('holds a scheduled notification until its date', async () => {
    const at = new Date(Date.now() + 1500);
    const card = await issue(a, { initialValueCents: 1000, recipientPatientEmail: 'later@example.com', scheduledSendAt: at.toISOString() });
    await kit.run(a, ACTIVATE, { id: card.id, send: true });
    expect(mailsFor(card.code)).toEqual([]);
    expect(await delivered(card.code)).toHaveLength(1);
    expect(await sentAt(card.id)).toBeGreaterThanOrEqual(at.getTime());
  });

  it("treats another tenant's cards like unknown ones and lists by status", async () => {
    const theirs = await issue(b, { initialValueCents: 1000, suppressRecipientNotification: true });
    for (const id of [theirs.id, '00000000-0000-4000-8000-000000000000', 'nope']) {
      expect(codeOf(await kit.run(a, READ, { id }))).toBe('NOT_FOUND');
      expect(codeOf(await kit.run(a, ACTIVATE, { id, send: true }))).toBe('NOT_FOUND');
    }
    const pending = await kit.run(b, '{ issuedGiftCards(status: PENDING) { totalCount pageInfo { hasNextPage } nodes { id } } }');
    expect(pending.data.issuedGiftCards).toEqual({ totalCount: 1, pageInfo: { hasNextPage: false }, nodes: [{ id: theirs.id }] });
    const past = await kit.run(b, 'query($after: String) { issuedGiftCards(after: $after) { totalCount nodes { id } } }', { after: Buffer.from('offset:80').toString('base64url') });
    expect(past.data.issuedGiftCards).toEqual({ totalCount: 1, nodes: [] });
  });
});
