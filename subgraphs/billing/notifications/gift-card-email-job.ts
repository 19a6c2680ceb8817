import { randomUUID } from 'node:crypto';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { enqueue } from '../../shared/jobs/job-queue';
import { GIFT_CARD_EMAIL_QUEUE, type GiftCardEmailJob } from './email-queue';
import { giftCardEmail, type GiftCardMailData } from './gift-card-email';
import type { MailTransport } from './mail-transport';

/** Attempts before a notification is given up (`failed_at`). */
export const MAX_ATTEMPTS = 8;
/** Waits after the 1st, 2nd, ... failed attempt: a flaky SMTP server gets about a day to recover. */
export const BACKOFF_SECONDS = [60, 300, 1_800, 7_200, 14_400, 28_800, 43_200];

/** What became of one job: done (sent, failed for good, retried under a new job, or no longer current), or busy (another sender holds it). */
export type EmailJobOutcome = 'done' | 'busy';

/** The notification a job may send, with what its e-mail shows. */
interface DueRow extends GiftCardMailData {
  id: string;
  giftCardId: string;
  attempts: number;
}

/** An error's code (`ECONNECTION`, `EAUTH`) or class name: never its message, which may carry an address. */
export const errorCode = (error: unknown): string => String((error as { code?: unknown })?.code ?? (error as Error)?.name ?? 'Error').slice(0, 64);

const tracer = trace.getTracer('healthcare-practice-platform');

/**
 * Sends the gift card e-mail that `jobId` stands for, in one transaction holding the
 * notification's row lock (so two senders never send it at once, and a crashed sender's lock goes
 * with its connection): the send, then its record, and after a failure the next attempt's job,
 * `BACKOFF_SECONDS` later, until `MAX_ATTEMPTS`. A job that is no longer the notification's
 * current one (sent, given up, or superseded) does nothing. Each row's own tenant id is bound.
 */
export function sendGiftCardEmail(root: EntityManager, transport: MailTransport, jobId: string, job: GiftCardEmailJob, log: Pick<Logger, 'warn'>): Promise<EmailJobOutcome> {
  return root.fork().transactional(async (tx) => {
    const trx = tx.getTransactionContext();
    const run = <T extends Record<string, any>[]>(sql: string, params: unknown[]) => tx.getConnection().execute<T>(sql, params, 'all', trx);
    const [row] = await run<DueRow[]>(
      `select n.id, n.gift_card_id as "giftCardId", n.recipient_email as "to", n.attempts,
              g.code, g.current_balance_cents as "amountCents", g.recipient_patient_name as "recipientName",
              g.purchasing_patient_name as "purchaserName", g.recipient_note as "note"
         from billing.notifications n join billing.gift_cards g on g.id = n.gift_card_id and g.tenant_id = n.tenant_id
        where n.job_id = ? and n.tenant_id = ? and n.id = ? and n.sent_at is null and n.failed_at is null
        for update of n skip locked`,
      [jobId, job.tenantId, job.notificationId],
    );
    if (!row) {
      const held = await run(`select 1 from billing.notifications where job_id = ? and tenant_id = ? and sent_at is null and failed_at is null`, [jobId, job.tenantId]);
      return held.length > 0 ? 'busy' : 'done';
    }
    const attempts = row.attempts + 1;
    let messageId: string | null = null;
    let sendError: unknown = null;
    await tracer.startActiveSpan('email.send', { attributes: { 'tenant.id': job.tenantId, 'email.kind': 'gift_card_recipient', 'email.attempt': attempts } }, async (span) => {
      try {
        ({ messageId } = await transport.send(giftCardEmail(row), row.id));
      } catch (error) {
        sendError = error;
        // The code only: a transport's message may carry the recipient's address.
        span.setStatus({ code: SpanStatusCode.ERROR, message: errorCode(error) });
      } finally {
        span.end();
      }
    });
    if (!sendError) {
      await run(
        `update billing.notifications set sent_at = clock_timestamp(), attempts = ?, message_id = ?, last_error = null, job_id = null, updated_at = now() where id = ? and tenant_id = ?`,
        [attempts, messageId, row.id, job.tenantId],
      );
      await run(`update billing.gift_cards set notification_sent_at = clock_timestamp(), updated_at = now() where id = ? and tenant_id = ?`, [row.giftCardId, job.tenantId]);
      return 'done';
    }
    const code = errorCode(sendError);
    const final = attempts >= MAX_ATTEMPTS;
    const wait = BACKOFF_SECONDS[Math.min(attempts - 1, BACKOFF_SECONDS.length - 1)];
    const next = final ? null : randomUUID();
    const [scheduled] = await run<{ nextAttemptAt: string }[]>(
      `update billing.notifications set attempts = ?, last_error = ?, updated_at = now(), job_id = ?,
         next_attempt_at = now() + make_interval(secs => ?), failed_at = case when ? then now() else null end
       where id = ? and tenant_id = ? returning next_attempt_at as "nextAttemptAt"`,
      [attempts, code, next, wait, final, row.id, job.tenantId],
    );
    if (next) await enqueue(tx, GIFT_CARD_EMAIL_QUEUE, [{ id: next, data: job, startAfter: new Date(scheduled.nextAttemptAt) }]);
    // Ids and codes only: the address and the card's code stay out of the log.
    log.warn({ notificationId: row.id, attempts, errorType: code }, 'notification not sent');
    return 'done';
  });
}
