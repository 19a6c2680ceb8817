import type { Pool } from 'pg';
import { WebhookDeliveryRepository, type WebhookQueueStats } from '../repositories/webhook-delivery.repository';

/** The delivery log's backlog across every tenant, for the metrics (one cheap statement). */
export function readWebhookQueue(pool: Pool): Promise<WebhookQueueStats> {
  return WebhookDeliveryRepository.backlogUnscoped(pool);
}
