import { GIFT_CARD_EMAIL_QUEUE } from '../../../subgraphs/billing/notifications/email-queue';
import { formatCents, giftCardEmail } from '../../../subgraphs/billing/notifications/gift-card-email';
import { BACKOFF_SECONDS, MAX_ATTEMPTS, sendGiftCardEmail } from '../../../subgraphs/billing/notifications/gift-card-email-job';
import type { MailMessage, MailTransport } from '../../../subgraphs/common/mail/mail-transport';
import { jobQueueOf } from '../../../platform/jobs/job-queue';
import { startBillingKit, type BillingKit } from './billing-kit';

function transport(fail?: Error & { code?: string }): MailTransport & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    sent,
    async send(message) {
      if (fail) throw fail;
      sent.push(message);
      return { messageId: '<m-1@example.com>' };
    },
    close: () => undefined,
  };
}

interface NotificationRow {
  id: string;
  job_id: string | null;
  attempts: number;
  last_error: string | null;
  sent_at: Date | null;
  failed_at: Date | null;
  wait: number;
}

describe('gift card e-mail job: one attempt per job, backoff and give-up as new jobs (real PostgreSQL)', () => {
  let kit: BillingKit;
  let tenant: string;
  const log = () => ({ warn: jest.fn() });

  beforeAll(async () => {
    kit = await startBillingKit();
    tenant = await kit.tenant('Mail Jobs');
  });
  afterAll(() => kit.close());

  const sql = <T>(text: string, params: unknown[]) => kit.billing.orm.em.getConnection().execute<T[]>(text, params);
  /** An activated card whose e-mail is due tomorrow: the end-to-end server's sender leaves it alone, the test sends it by hand. */
  async function queued(): Promise<{ code: string; row: NotificationRow }> {
    const issued = await kit.run(tenant, 'mutation($i: IssueGiftCardInput!) { issueGiftCard(input: $i) { id code } }', {
      i: { initialValueCents: 5000, recipientPatientName: 'Rae', recipientPatientEmail: 'rae@example.com', scheduledSendAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    const card = issued.data.issueGiftCard;
    await kit.run(tenant, 'mutation($id: ID!) { activateGiftCard(id: $id, sendNotification: true) { id } }', { id: card.id });
    return { code: card.code, row: await row(card.id) };
  }
  async function row(giftCardId: string): Promise<NotificationRow> {
    const [found] = await sql<NotificationRow>(
      `select id, job_id, attempts, last_error, sent_at, failed_at, extract(epoch from next_attempt_at - updated_at)::int as wait from billing.notifications where gift_card_id = ?`,
      [giftCardId],
    );
    return found;
  }
  const cardOf = async (notificationId: string) => (await sql<{ gift_card_id: string }>(`select gift_card_id from billing.notifications where id = ?`, [notificationId]))[0].gift_card_id;
  const send = (mail: MailTransport, jobId: string, notificationId: string, logger = log()) =>
    sendGiftCardEmail(kit.billing.orm.em as never, mail, jobId, { notificationId, tenantId: tenant }, logger);

  it('activation queues the e-mail as a job due at the scheduled date, in the same transaction', async () => {
    const { row: queuedRow } = await queued();
    const job = await jobQueueOf(kit.billing.orm.em as never).boss.getJobById<{ notificationId: string; tenantId: string }>(GIFT_CARD_EMAIL_QUEUE, queuedRow.job_id!);
    expect(job?.data).toEqual({ notificationId: queuedRow.id, tenantId: tenant });
    expect(job!.startAfter.getTime()).toBeGreaterThan(Date.now() + 3_600_000);
  });

  it('sends once, marks the notification and the card, and a second run of the same job sends nothing', async () => {
    const { code, row: before } = await queued();
    const mail = transport();
    expect(await send(mail, before.job_id!, before.id)).toBe('done');
    expect(mail.sent).toHaveLength(1);
    expect(mail.sent[0].to).toBe('rae@example.com');
    expect(mail.sent[0].text).toContain(code);
    const after = await row(await cardOf(before.id));
    expect(after).toMatchObject({ attempts: 1, job_id: null, last_error: null, failed_at: null });
    expect(after.sent_at).not.toBeNull();
    expect(await send(mail, before.job_id!, before.id)).toBe('done');
    expect(mail.sent).toHaveLength(1);
  });

  it('backs off after a failure under a new job, gives up after the last attempt, and logs codes only', async () => {
    const { row: before } = await queued();
    const failure = Object.assign(new Error('connect ECONNREFUSED rae@example.com'), { code: 'ECONNECTION' });
    const logger = log();
    expect(await send(transport(failure), before.job_id!, before.id, logger)).toBe('done');
    const retried = await row(await cardOf(before.id));
    expect(retried).toMatchObject({ attempts: 1, last_error: 'ECONNECTION', wait: BACKOFF_SECONDS[0], failed_at: null, sent_at: null });
    expect(retried.job_id).not.toBe(before.job_id);
    const next = await jobQueueOf(kit.billing.orm.em as never).boss.getJobById(GIFT_CARD_EMAIL_QUEUE, retried.job_id!);
    expect(next?.data).toEqual({ notificationId: before.id, tenantId: tenant });
    expect(JSON.stringify(logger.warn.mock.calls)).not.toContain('rae@example.com');
    expect(logger.warn).toHaveBeenCalledWith({ notificationId: before.id, attempts: 1, errorType: 'ECONNECTION' }, 'notification not sent');
    // The old job is no longer the notification's: it does nothing.
    expect(await send(transport(failure), before.job_id!, before.id)).toBe('done');
    expect((await row(await cardOf(before.id))).attempts).toBe(1);

    await sql(`update billing.notifications set attempts = ? where id = ?`, [MAX_ATTEMPTS - 1, before.id]);
    await send(transport(failure), retried.job_id!, before.id);
    const last = await row(await cardOf(before.id));
    expect(last).toMatchObject({ attempts: MAX_ATTEMPTS, job_id: null, wait: BACKOFF_SECONDS[BACKOFF_SECONDS.length - 1] });
    expect(last.failed_at).not.toBeNull();
  });

  it('reports busy while another sender holds the notification, and sends nothing', async () => {
    const { row: before } = await queued();
    const mail = transport();
    const held = kit.billing.orm.em.fork();
    await held.begin();
    try {
      await held.getConnection().execute(`select 1 from billing.notifications where id = ? for update`, [before.id], 'all', held.getTransactionContext());
      expect(await send(mail, before.job_id!, before.id)).toBe('busy');
    } finally {
      await held.rollback();
    }
    expect(mail.sent).toHaveLength(0);
  });

  it('writes the recipient e-mail with the code and the amount in units', () => {
    const data = { to: 'rae@example.com', code: 'ABCD-EFGH-JKMN-PQRS', amountCents: 5000, recipientName: 'Rae', purchaserName: 'Sam', note: 'Enjoy' };
    expect(formatCents(5000)).toBe('50.00');
    expect(formatCents(1205)).toBe('12.05');
    const mail = giftCardEmail(data);
    expect(mail).toEqual({ to: 'rae@example.com', subject: 'You have received a gift card', text: expect.stringContaining('Sam has sent you a gift card worth 50.00') });
    expect(mail.text).toContain('Your gift card code: ABCD-EFGH-JKMN-PQRS');
    expect(mail.text).toContain('Enjoy');
  });
});
