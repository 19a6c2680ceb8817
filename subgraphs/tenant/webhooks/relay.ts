import type { Db, PgBoss } from 'pg-boss' with { 'resolution-mode': 'import' };
import type { WebhookEventJob } from '../../../platform/jobs/webhook-event';
import { WebhookDeliveryRepository } from '../repositories/webhook-delivery.repository';
import { deliveryJob, WEBHOOK_DELIVERY_QUEUE } from './queues';

/**
 * Turns domain events into deliveries, inside the transaction `tx` that also completes their
 * jobs: events the tenant subscribed to (enabled endpoint, type in its list) become pending
 * deliveries carrying the exact payload text every attempt will sign, each with the job of its
 * first attempt; the rest are dropped. An event relayed twice (a retried job) is inserted once.
 * Returns how many deliveries were created.
 */
export async function relayEvents(tx: Db, boss: PgBoss, events: WebhookEventJob[]): Promise<number> {
  if (events.length === 0) return 0;
  const created = await WebhookDeliveryRepository.insertFromEventsUnscoped(tx, events);
  if (created.length > 0) await boss.insert(WEBHOOK_DELIVERY_QUEUE, created.map((r) => deliveryJob(r.job_id, r.id, r.tenant_id)), { db: tx });
  return created.length;
}
