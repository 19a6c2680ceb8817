import type { EntityManager } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { GiftCardMailData } from '../notifications/gift-card-email';

/** A notification its job may send, locked, with what its e-mail shows. */
export interface DueNotification extends GiftCardMailData {
  id: string;
  giftCardId: string;
  attempts: number;
}

/** An unsent notification that just got a job (notifications queued before e-mail ran on jobs). */
export interface AdoptedNotification {
  id: string;
  tenantId: string;
  jobId: string;
  due: string;
}

/**
 * The gift card e-mail's bookkeeping (`billing.notifications`; GiftCardRepository queues them).
 * Scoped statements bind the scope's tenant id and run on the caller's transaction: the e-mail job
 * holds its notification's row lock from the read to the record of the send.
 */
export class NotificationRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  private run<T extends Record<string, any>[]>(sql: string, params: unknown[]): Promise<T> {
    return this.em.getConnection().execute<T>(sql, params, 'all', this.em.getTransactionContext());
  }

  /**
   * Locks the notification `id` while `jobId` is its current job and it is neither sent nor given
   * up, with its card's e-mail data; null when it is not so, or another sender holds the lock.
   */
  async lockDue(jobId: string, id: string): Promise<DueNotification | null> {
    const [row] = await this.run<DueNotification[]>(
      `select n.id, n.gift_card_id as "giftCardId", n.recipient_email as "to", n.attempts,
              g.code, g.current_balance_cents as "amountCents", g.recipient_patient_name as "recipientName",
              g.purchasing_patient_name as "purchaserName", g.recipient_note as "note"
         from billing.notifications n join billing.gift_cards g on g.id = n.gift_card_id and g.tenant_id = n.tenant_id
        where n.job_id = ? and n.tenant_id = ? and n.id = ? and n.sent_at is null and n.failed_at is null
        for update of n skip locked`,
      [jobId, this.scope.tenantId, id],
    );
    return row ?? null;
  }

  /** Whether `jobId` is still the current job of an unsent notification (after lockDue found none: it is held). */
  async isPending(jobId: string): Promise<boolean> {
    const rows = await this.run(`select 1 from billing.notifications where job_id = ? and tenant_id = ? and sent_at is null and failed_at is null`, [jobId, this.scope.tenantId]);
    return rows.length > 0;
  }

  /**
   * The tenant's e-mails queued in the last 24 hours, read after taking the tenant's quota lock
   * (transaction-scoped, so it is held until the caller's insert commits): two activations, in any
   * processes, count one after the other and cannot both take the last slot. `retryAfterSeconds`:
   * until the oldest of them leaves the window.
   */
  async lockedDailyCount(): Promise<{ count: number; retryAfterSeconds: number }> {
    await this.run(`select pg_advisory_xact_lock(hashtextextended('billing.notification-quota:' || ?::text, 0))`, [this.scope.tenantId]);
    const [row] = await this.run<{ count: number; retryAfterSeconds: number | null }[]>(
      `select count(*)::int as count, ceil(extract(epoch from min(created_at) + interval '24 hours' - clock_timestamp()))::int as "retryAfterSeconds"
         from billing.notifications where tenant_id = ? and created_at > clock_timestamp() - interval '24 hours'`,
      [this.scope.tenantId],
    );
    return { count: row.count, retryAfterSeconds: Math.max(1, row.retryAfterSeconds ?? 1) };
  }

  /** Records a sent e-mail on the notification (its last job done) and on its card. */
  async markSent(id: string, giftCardId: string, attempts: number, messageId: string | null): Promise<void> {
    await this.run(
      `update billing.notifications set sent_at = clock_timestamp(), attempts = ?, message_id = ?, last_error = null, job_id = null, updated_at = now() where id = ? and tenant_id = ?`,
      [attempts, messageId, id, this.scope.tenantId],
    );
    await this.run(`update billing.gift_cards set notification_sent_at = clock_timestamp(), updated_at = now() where id = ? and tenant_id = ?`, [giftCardId, this.scope.tenantId]);
  }

  /**
   * Records a failed attempt: the next one `waitSeconds` from now under `nextJob`, or given up
   * (`final`, no job). Returns when the next attempt is due.
   */
  async recordFailure(id: string, attempts: number, errorCode: string, nextJob: string | null, waitSeconds: number, final: boolean): Promise<Date> {
    const [row] = await this.run<{ nextAttemptAt: string }[]>(
      `update billing.notifications set attempts = ?, last_error = ?, updated_at = now(), job_id = ?,
         next_attempt_at = now() + make_interval(secs => ?), failed_at = case when ? then now() else null end
       where id = ? and tenant_id = ? returning next_attempt_at as "nextAttemptAt"`,
      [attempts, errorCode, nextJob, waitSeconds, final, id, this.scope.tenantId],
    );
    return new Date(row.nextAttemptAt);
  }

  /** Gives each unsent notification without a job a job id (skipping rows another process holds), in the transaction `tx`. */
  static adoptUnqueuedUnscoped(tx: EntityManager): Promise<AdoptedNotification[]> {
    return tx.getConnection().execute<AdoptedNotification[]>(
      `update billing.notifications set job_id = gen_random_uuid(), updated_at = now()
        where id in (select id from billing.notifications where sent_at is null and failed_at is null and job_id is null for update skip locked)
        returning id, tenant_id as "tenantId", job_id as "jobId", next_attempt_at as due`,
      [],
      'all',
      tx.getTransactionContext(),
    );
  }

  /** E-mails due now and not yet sent (neither sent nor given up): reads the `notifications_pending_idx` partial index's rows only. */
  static async countDueUnscoped(pool: Pool): Promise<number> {
    const { rows } = await pool.query<{ due: number }>(
      `select count(*)::int as due from billing.notifications where sent_at is null and failed_at is null and next_attempt_at <= now()`,
    );
    return rows[0].due;
  }
}
