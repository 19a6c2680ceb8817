import { RateLimitedError } from '../../../schema/errors';
import type { NotificationRepository } from '../repositories/notification.repository';

/** Seconds in the quota's window: a limit per any 24 hours, not per calendar day. */
const WINDOW_SECONDS = 86_400;

/**
 * A tenant queued its NOTIFICATION_DAILY_LIMIT e-mails in the last 24 hours: 429 `RATE_LIMITED`
 * with `Retry-After` (when the oldest of them leaves the window), and nothing of the request done.
 */
export class EmailQuotaExceededError extends RateLimitedError {
  constructor(limit: number, retryAfterSeconds: number) {
    super(retryAfterSeconds);
    this.message = `Notification e-mail limit reached: at most ${limit} e-mails per tenant in 24 hours; retry later, or activate with sendNotification false`;
  }
}

/**
 * Checks, inside the transaction that is about to queue one more e-mail, that the tenant has a
 * slot left; counted from the database under the tenant's lock, so the cap holds across every
 * process that runs billing (issue 31, finding 13: gift card notes could e-mail any text to any
 * address without bound).
 */
export async function takeEmailSlot(notifications: NotificationRepository, limit: number): Promise<void> {
  const { count, retryAfterSeconds } = await notifications.lockedDailyCount();
  if (count >= limit) throw new EmailQuotaExceededError(limit, count === 0 ? WINDOW_SECONDS : retryAfterSeconds);
}
