import type { JobQueueDefinition } from '../../../platform/jobs/job-queue';

/** One job per sending attempt of a gift card e-mail; its id is the notification's `job_id` while current. */
export const GIFT_CARD_EMAIL_QUEUE = 'billing.gift-card-email';

/** What a gift card e-mail job carries: ids only, never the address or the code. */
export interface GiftCardEmailJob {
  notificationId: string;
  tenantId: string;
}

/**
 * The queues billing owns. pg-boss's own retries cover a crashed or stuck sender (the job expires)
 * and failed bookkeeping; SMTP failures follow the sender's schedule as new jobs. A job may wait
 * for its scheduled send date, however far ahead: `retentionSeconds` counts from it.
 */
export const BILLING_QUEUES: JobQueueDefinition[] = [
  {
    name: GIFT_CARD_EMAIL_QUEUE,
    options: { policy: 'standard', expireInSeconds: 600, retryLimit: 100, retryDelay: 5, retryBackoff: true, retryDelayMax: 600, deleteAfterSeconds: 3_600, notify: true },
  },
];
