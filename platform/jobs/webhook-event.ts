/**
 * The tenant subgraph's public queue: every subgraph sends its domain events here, and the tenant
 * subgraph (which owns webhook configuration and the delivery log) turns the ones a tenant
 * subscribed to into deliveries (docs/decisions.md, One job queue).
 */
export const WEBHOOK_EVENT_QUEUE = 'tenant.webhook-event';

/** One domain event as it travels to the tenant subgraph; `id` becomes the Standard Webhooks `webhook-id`. */
export interface WebhookEventJob {
  id: string;
  tenantId: string;
  /** Catalogue name, e.g. `gift_card.activated`. */
  type: string;
  /** The event's `data` object. May hold personal data: never logged. */
  data: Record<string, unknown>;
  /** ISO 8601 UTC: when the change happened (the payload's `timestamp`). */
  occurredAt: string;
}
