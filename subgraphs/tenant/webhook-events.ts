/**
 * The catalogue of webhook event types a tenant can subscribe to (DESIGN.md section 6); the
 * webhook configuration refuses any other name. Each producing subgraph writes these to its
 * outbox under exactly this name.
 */
export const WEBHOOK_EVENTS = [
  'tenant.updated',
  'webhook_config.updated',
  'payment_method.created',
  'gift_card.issued',
  'gift_card.activated',
  'member.payment_succeeded',
  'member.payment_failed',
  'campaign.updated',
  'opportunity.created',
  'dashboard.created',
  'dashboard.deleted',
] as const;

/** One event type name of the catalogue. */
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** True when the name is in the catalogue. */
export const isWebhookEvent = (name: string): name is WebhookEventName => (WEBHOOK_EVENTS as readonly string[]).includes(name);
