import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A domain event waiting for delivery, written in the same transaction as the change that caused
 * it (transactional outbox). Every subgraph has its own `<schema>.outbox_events` table; the
 * webhook dispatcher relays from all of them. `id` is the event's identity for its whole life:
 * it becomes the Standard Webhooks `webhook-id`, stable across retries.
 */
@Entity({ tableName: 'outbox_events' })
export class OutboxEvent {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'uuid', fieldName: 'tenant_id' })
  tenantId!: string;

  /** Catalogue name, e.g. `gift_card.activated`. */
  @Property({ type: 'text' })
  type!: string;

  /** The event's `data` object. May hold personal data: never logged. */
  @Property({ type: 'jsonb', hidden: true })
  data!: Record<string, unknown>;

  @Property({ type: 'timestamptz', fieldName: 'occurred_at' })
  occurredAt: Date = new Date();

  /** Set by the dispatcher once the event is copied into the delivery log. */
  @Property({ type: 'timestamptz', fieldName: 'relayed_at', nullable: true })
  relayedAt: Date | null = null;
}
