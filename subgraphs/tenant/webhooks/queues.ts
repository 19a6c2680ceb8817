import type { JobInsert } from 'pg-boss' with { 'resolution-mode': 'import' };
import type { JobQueueDefinition } from '../../../platform/jobs/job-queue';
import { WEBHOOK_EVENT_QUEUE } from '../../../platform/jobs/webhook-event';

/** One job per delivery attempt; its id is the delivery's `job_id` while it is the current one. */
export const WEBHOOK_DELIVERY_QUEUE = 'tenant.webhook-delivery';

/**
 * A delivery job, in its endpoint's pg-boss group (the tenant: one endpoint each), so that workers
 * fetching with `groupConcurrency` leave an endpoint's jobs beyond its share in the queue.
 */
export function deliveryJob(jobId: string, deliveryId: string, tenantId: string, startAfter?: Date): JobInsert<{ deliveryId: string }> {
  return { id: jobId, data: { deliveryId }, group: { id: tenantId }, ...(startAfter ? { startAfter } : {}) };
}

// pg-boss's own retries cover what the handlers do not: a crashed or stuck worker (the job
// expires) and a failed bookkeeping statement. Receiver failures follow the documented schedule
// (schedule.ts), as new jobs. Completed jobs are transient: the delivery log is the record.
const RECOVERY = { retryLimit: 100, retryDelay: 1, retryBackoff: true, retryDelayMax: 300, deleteAfterSeconds: 3_600, notify: true } as const;

/** The queues the tenant subgraph owns (docs/webhooks.md, The dispatcher). */
export const WEBHOOK_QUEUES: JobQueueDefinition[] = [
  { name: WEBHOOK_EVENT_QUEUE, options: { ...RECOVERY, policy: 'standard', expireInSeconds: 60 } },
  // expireInSeconds is the lease: each worker sets it from WEBHOOK_TIMEOUT_MS when it starts.
  { name: WEBHOOK_DELIVERY_QUEUE, options: { ...RECOVERY, policy: 'standard', expireInSeconds: 15 } },
];
