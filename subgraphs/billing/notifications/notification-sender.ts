import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { giftCardEmail, type GiftCardMailData } from './gift-card-email';
import type { MailTransport } from './mail-transport';

/** Sender options; `pollMs` from NOTIFICATION_POLL_MS. */
export interface SenderOptions {
  pollMs: number;
  /** Rows claimed per transaction. */
  batchSize?: number;
  log: Pick<Logger, 'warn' | 'error'>;
  /** Only these tenants' notifications; unset (production): every tenant's. Lets a second sender share the queue, e.g. in tests. */
  tenantIds?: readonly string[];
}

/** Attempts before a notification is given up (`failed_at`). */
export const MAX_ATTEMPTS = 8;
// Waits after the 1st, 2nd, ... failed attempt: a flaky SMTP server gets about a day to recover.
const BACKOFF_SECONDS = [60, 300, 1_800, 7_200, 14_400, 28_800, 43_200];

/** A claimed notification with what its e-mail shows. */
interface DueRow extends GiftCardMailData {
  id: string;
  tenantId: string;
  giftCardId: string;
  attempts: number;
}

/** An error's code (`ECONNECTION`, `EAUTH`) or class name: never its message, which may carry an address. */
const errorCode = (error: unknown): string => String((error as { code?: unknown })?.code ?? (error as Error)?.name ?? 'Error').slice(0, 64);

let active: NotificationSender | null = null;

/** Asks the running sender (if this process has one) to look for due notifications now, e.g. right after an activation commits. */
export function nudgeNotifications(): void {
  active?.nudge();
}

/**
 * Sends queued notifications (billing.notifications) whose time has come: polled every `pollMs`
 * and nudged after a change queues one. Each batch is claimed with `for update skip locked`, so
 * several processes share the queue and every row is sent once; a failure is retried with
 * backoff. Works across tenants on purpose, binding each row's own tenant id in its updates.
 */
export class NotificationSender {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private queued: Promise<number> | null = null;

  constructor(private readonly orm: MikroORM, private readonly transport: MailTransport, private readonly options: SenderOptions) {}

  /** Starts polling, and makes this the sender `nudgeNotifications` reaches. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.nudge(), this.options.pollMs);
    this.timer.unref();
    active = this;
    this.nudge();
  }

  /** Runs soon, without waiting; failures are logged. */
  nudge(): void {
    this.runOnce().catch((error) => this.options.log.error({ errorType: errorCode(error) }, 'notification run failed'));
  }

  /**
   * Sends everything due now and resolves with how many were sent. Runs never overlap: a call
   * during a run waits for it and then runs again, so its caller sees every row due at call time.
   */
  runOnce(): Promise<number> {
    if (this.queued) return this.queued;
    const next = this.running.then(() => {
      this.queued = null;
      return this.drain();
    });
    this.queued = next;
    this.running = next.catch(() => 0);
    return next;
  }

  /** Stops polling and waits for the run in progress; the transport is closed. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (active === this) active = null;
    await this.running;
    this.transport.close();
  }

  private async drain(): Promise<number> {
    const batchSize = this.options.batchSize ?? 20;
    let sent = 0;
    for (;;) {
      const batch = await this.sendBatch(batchSize);
      sent += batch.sent;
      if (batch.claimed < batchSize) return sent;
    }
  }

  private sendBatch(limit: number): Promise<{ claimed: number; sent: number }> {
    return this.orm.em.fork().transactional(async (tx) => {
      const trx = tx.getTransactionContext();
      const run = <T extends Record<string, any>[]>(sql: string, params: unknown[]) => tx.getConnection().execute<T>(sql, params, 'all', trx);
      const scope = this.options.tenantIds?.length ? [...this.options.tenantIds] : null;
      const rows = await run<DueRow[]>(
        `select n.id, n.tenant_id as "tenantId", n.gift_card_id as "giftCardId", n.recipient_email as "to", n.attempts,
                g.code, g.current_balance_cents as "amountCents", g.recipient_patient_name as "recipientName",
                g.purchasing_patient_name as "purchaserName", g.recipient_note as "note"
         from billing.notifications n join billing.gift_cards g on g.id = n.gift_card_id and g.tenant_id = n.tenant_id
         where n.sent_at is null and n.failed_at is null and n.next_attempt_at <= now() ${scope ? 'and n.tenant_id in (?)' : ''}
         order by n.next_attempt_at limit ? for update of n skip locked`,
        scope ? [scope, limit] : [limit],
      );
      let sent = 0;
      for (const row of rows) {
        let messageId: string | null = null;
        let sendError: unknown = null;
        try {
          ({ messageId } = await this.transport.send(giftCardEmail(row), row.id));
        } catch (error) {
          sendError = error;
        }
        // A savepoint per row: a failed bookkeeping write loses only this row's record (it is sent
        // again later: at least once), never the records of the rows already mailed in this batch.
        await run('savepoint notification_row', []);
        try {
          if (!sendError) {
            await run(
              `update billing.notifications set sent_at = clock_timestamp(), attempts = attempts + 1, message_id = ?, last_error = null, updated_at = now() where id = ? and tenant_id = ?`,
              [messageId, row.id, row.tenantId],
            );
            await run(`update billing.gift_cards set notification_sent_at = clock_timestamp(), updated_at = now() where id = ? and tenant_id = ?`, [row.giftCardId, row.tenantId]);
            sent++;
          } else {
            const attempts = row.attempts + 1;
            const code = errorCode(sendError);
            const wait = BACKOFF_SECONDS[Math.min(attempts - 1, BACKOFF_SECONDS.length - 1)];
            await run(
              `update billing.notifications set attempts = ?, last_error = ?, updated_at = now(),
                 next_attempt_at = now() + make_interval(secs => ?), failed_at = case when ? then now() else null end
               where id = ? and tenant_id = ?`,
              [attempts, code, wait, attempts >= MAX_ATTEMPTS, row.id, row.tenantId],
            );
            // Ids and codes only: the address and the card's code stay out of the log.
            this.options.log.warn({ notificationId: row.id, attempts, errorType: code }, 'notification not sent');
          }
          await run('release savepoint notification_row', []);
        } catch (error) {
          await run('rollback to savepoint notification_row', []);
          this.options.log.error({ notificationId: row.id, err: error }, 'notification bookkeeping failed; it will be sent again');
        }
      }
      return { claimed: rows.length, sent };
    });
  }
}
