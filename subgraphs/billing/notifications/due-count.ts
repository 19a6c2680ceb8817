import type { Pool } from 'pg';
import { NotificationRepository } from '../repositories/notification.repository';

/** Gift card e-mails due now and not yet sent across every tenant, for the metrics: the sender's backlog. */
export function countDueNotifications(pool: Pool): Promise<number> {
  return NotificationRepository.countDueUnscoped(pool);
}
