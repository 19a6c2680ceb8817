import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueue } from './job-queue';
import { WEBHOOK_EVENT_QUEUE, type WebhookEventJob } from './webhook-event';

/**
 * Sends a domain event to the tenant subgraph's webhook queue in the caller's transaction: it
 * commits or rolls back with the change it reports, so there is never an event without its change
 * or a change without its event. Call it inside `em.transactional(...)`; it throws outside one.
 * Returns the event id (the job's id too, so the same event can never be queued twice).
 */
export async function recordEvent(em: EntityManager, tenantId: string, type: string, data: Record<string, unknown>): Promise<string> {
  const event: WebhookEventJob = { id: randomUUID(), tenantId, type, data, occurredAt: new Date().toISOString() };
  await enqueue(em, WEBHOOK_EVENT_QUEUE, [{ id: event.id, data: event }]);
  return event.id;
}
