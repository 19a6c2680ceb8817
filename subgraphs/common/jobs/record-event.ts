import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import { enqueue } from '../../../platform/jobs/job-queue';
import { WEBHOOK_EVENT_QUEUE, type WebhookEventJob } from '../../../platform/jobs/webhook-event';

/**
 * Sends a domain event to the tenant subgraph's webhook queue in the caller's transaction: it
 * commits or rolls back with the change it reports, so there is never an event without its change
 * or a change without its event. Call it inside `em.transactional(...)`; it throws outside one.
 * The event belongs to the scope's tenant (its webhook endpoint receives it).
 * Returns the event id (the job's id too, so the same event can never be queued twice).
 */
export async function recordEvent(em: EntityManager, scope: TenantScope, type: string, data: Record<string, unknown>): Promise<string> {
  const event: WebhookEventJob = { id: randomUUID(), tenantId: scope.tenantId, type, data, occurredAt: new Date().toISOString() };
  await enqueue(em, WEBHOOK_EVENT_QUEUE, [{ id: event.id, data: event }]);
  return event.id;
}
