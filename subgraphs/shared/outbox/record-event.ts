import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEvent } from './outbox-event.entity';

/**
 * Queues an event in the caller's unit of work: it is inserted by the same flush, in the same
 * transaction, as the change it reports, so there is never an event without its change or a
 * change without its event. Call it inside `em.transactional(...)` (or before the flush that
 * writes the change).
 */
export function recordEvent(em: EntityManager, tenantId: string, type: string, data: Record<string, unknown>): OutboxEvent {
  const event = em.create(OutboxEvent, { tenantId, type, data } as never);
  em.persist(event);
  return event;
}
