import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import type { TenantScope } from '../../../platform/tenant-scope';
import { GiftCard } from '../entities/gift-card.entity';
import { Notification } from '../entities/notification.entity';
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
  due: Date;
}

/** The quota's window: a limit per any 24 hours, not per calendar day. */
const WINDOW_MS = 86_400_000;

/**
 * The gift card e-mail's bookkeeping (`billing.notifications`; GiftCardRepository queues them),
 * through the ORM under the tenant guard, on the caller's transaction: the e-mail job holds its
 * notification's row lock from the read to the record of the send.
 */
export class NotificationRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /**
   * Locks the notification `id` while `jobId` is its current job and it is neither sent nor given
   * up (`for update skip locked`), with its card's e-mail data; null when it is not so, or another
   * sender holds the lock.
   */
  async lockDue(jobId: string, id: string): Promise<DueNotification | null> {
    const tenantId = this.scope.tenantId;
    const notification = await this.em.findOne(Notification, { tenantId, id, jobId, sentAt: null, failedAt: null }, { lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE, refresh: true });
    const card = notification && (await this.em.findOne(GiftCard, { tenantId, id: notification.giftCardId }));
    if (!notification || !card) return null;
    return {
      id: notification.id,
      giftCardId: card.id,
      to: notification.recipientEmail,
      attempts: notification.attempts,
      code: card.code,
      amountCents: card.currentBalanceCents,
      recipientName: card.recipientPatientName,
      purchaserName: card.purchasingPatientName,
      note: card.recipientNote,
    };
  }

  /** Whether `jobId` is still the current job of an unsent notification (after lockDue found none: it is held). */
  async isPending(jobId: string): Promise<boolean> {
    return (await this.em.count(Notification, { tenantId: this.scope.tenantId, jobId, sentAt: null, failedAt: null })) > 0;
  }

  /**
   * The tenant's e-mails queued in the last 24 hours, read after taking the tenant's quota lock
   * (transaction-scoped, so it is held until the caller's insert commits): two activations, in any
   * processes, count one after the other and cannot both take the last slot. `retryAfterSeconds`:
   * until the oldest of them leaves the window. The lock is an advisory lock, which no ORM call
   * takes: it reads no rows; its key names the tenant.
   */
  async lockedDailyCount(): Promise<{ count: number; retryAfterSeconds: number }> {
    const tenantId = this.scope.tenantId;
    await this.em.execute(`select pg_advisory_xact_lock(hashtextextended('billing.notification-quota:' || ?::text, 0))`, [tenantId]);
    const since = new Date(Date.now() - WINDOW_MS);
    const [oldest, count] = await this.em.findAndCount(Notification, { tenantId, createdAt: { $gt: since } }, { orderBy: { createdAt: 'asc' }, limit: 1 });
    const retryAfterSeconds = oldest.length ? Math.ceil((oldest[0].createdAt.getTime() + WINDOW_MS - Date.now()) / 1000) : 1;
    return { count, retryAfterSeconds: Math.max(1, retryAfterSeconds) };
  }

  /** Records a sent e-mail on the notification (its last job done) and on its card. */
  async markSent(id: string, giftCardId: string, attempts: number, messageId: string | null): Promise<void> {
    const tenantId = this.scope.tenantId;
    const notification = await this.em.findOneOrFail(Notification, { tenantId, id });
    const card = await this.em.findOneOrFail(GiftCard, { tenantId, id: giftCardId });
    const now = new Date();
    Object.assign(notification, { sentAt: now, attempts, messageId, lastError: null, jobId: null });
    card.notificationSentAt = now;
    await this.em.flush();
  }

  /**
   * Records a failed attempt: the next one `waitSeconds` from now under `nextJob`, or given up
   * (`final`, no job). Returns when the next attempt is due.
   */
  async recordFailure(id: string, attempts: number, errorCode: string, nextJob: string | null, waitSeconds: number, final: boolean): Promise<Date> {
    const notification = await this.em.findOneOrFail(Notification, { tenantId: this.scope.tenantId, id });
    const now = new Date();
    Object.assign(notification, { attempts, lastError: errorCode, jobId: nextJob, nextAttemptAt: new Date(now.getTime() + waitSeconds * 1000), failedAt: final ? now : null });
    await this.em.flush();
    return notification.nextAttemptAt;
  }

  /** Gives each unsent notification without a job a job id (skipping rows another process holds), in the transaction `tx`. */
  static async adoptUnqueuedUnscoped(tx: EntityManager): Promise<AdoptedNotification[]> {
    const unqueued = await tx.find(Notification, { sentAt: null, failedAt: null, jobId: null }, { filters: false, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE });
    for (const notification of unqueued) notification.jobId = randomUUID();
    await tx.flush();
    return unqueued.map((n) => ({ id: n.id, tenantId: n.tenantId, jobId: n.jobId!, due: n.nextAttemptAt }));
  }

  /**
   * E-mails due now and not yet sent (neither sent nor given up), for the metrics on their own
   * pool: reads the `notifications_pending_idx` partial index's rows only. SQL on a pg pool, across
   * every tenant: the one statement of billing outside the ORM that reads rows.
   */
  static async countDueUnscoped(pool: Pool): Promise<number> {
    const { rows } = await pool.query<{ due: number }>(
      `select count(*)::int as due from billing.notifications where sent_at is null and failed_at is null and next_attempt_at <= now()`,
    );
    return rows[0].due;
  }
}
