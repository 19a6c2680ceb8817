import { randomUUID } from 'node:crypto';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { enqueue } from '../../../platform/jobs/job-queue';
import { TenantScope } from '../../../platform/tenant-scope';
import { NotificationRepository } from '../repositories/notification.repository';
import { DirectoryRepository } from '../repositories/directory.repository';
import { GIFT_CARD_EMAIL_QUEUE, type GiftCardEmailJob } from './email-queue';
import { giftCardEmail } from './gift-card-email';
import type { MailTransport } from '../../common/mail/mail-transport';

/** Attempts before a notification is given up (`failed_at`). */
export const MAX_ATTEMPTS = 8;
/** Waits after the 1st, 2nd, ... failed attempt: a flaky SMTP server gets about a day to recover. */
export const BACKOFF_SECONDS = [60, 300, 1_800, 7_200, 14_400, 28_800, 43_200];

/** What became of one job: done (sent, failed for good, retried under a new job, or no longer current), or busy (another sender holds it). */
export type EmailJobOutcome = 'done' | 'busy';

/** An error's code (`ECONNECTION`, `EAUTH`) or class name: never its message, which may carry an address. */
export const errorCode = (error: unknown): string => String((error as { code?: unknown })?.code ?? (error as Error)?.name ?? 'Error').slice(0, 64);

const tracer = trace.getTracer('healthcare-practice-platform');

/**
 * Sends the gift card e-mail that `jobId` stands for, in one transaction holding the
 * notification's row lock (so two senders never send it at once, and a crashed sender's lock goes
 * with its connection): the send, then its record, and after a failure the next attempt's job,
 * `BACKOFF_SECONDS` later, until `MAX_ATTEMPTS`. A job that is no longer the notification's
 * current one (sent, given up, or superseded) does nothing. The job acts in the tenant its own
 * row names (the job was queued by that tenant's change): its entity manager is under that
 * tenant's guard, and every statement binds it.
 */
export function sendGiftCardEmail(root: EntityManager, transport: MailTransport, jobId: string, job: GiftCardEmailJob, log: Pick<Logger, 'warn'>): Promise<EmailJobOutcome> {
  const scope = TenantScope.ofStoredRow(job.tenantId);
  return scope.guard(root.fork()).transactional(async (tx) => {
    const notifications = new NotificationRepository(tx, scope);
    const row = await notifications.lockDue(jobId, job.notificationId);
    if (!row) return (await notifications.isPending(jobId)) ? 'busy' : 'done';
    const attempts = row.attempts + 1;
    // A test twin's e-mail is recorded as sent and never reaches SMTP: test data may name real
    // people, and nothing a test key does leaves the platform (docs/api.md, Test mode).
    if (!(await new DirectoryRepository(tx, scope).livemode())) {
      await notifications.markSent(row.id, row.giftCardId, attempts, null);
      return 'done';
    }
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
      await notifications.markSent(row.id, row.giftCardId, attempts, messageId);
      return 'done';
    }
    const code = errorCode(sendError);
    const final = attempts >= MAX_ATTEMPTS;
    const wait = BACKOFF_SECONDS[Math.min(attempts - 1, BACKOFF_SECONDS.length - 1)];
    const next = final ? null : randomUUID();
    const nextAttemptAt = await notifications.recordFailure(row.id, attempts, code, next, wait, final);
    if (next) await enqueue(tx, GIFT_CARD_EMAIL_QUEUE, [{ id: next, data: job, startAfter: nextAttemptAt }]);
    // Ids and codes only: the address and the card's code stay out of the log.
    log.warn({ notificationId: row.id, attempts, errorType: code }, 'notification not sent');
    return 'done';
  });
}
