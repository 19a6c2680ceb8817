import { WEBHOOK_EVENT_NAMES } from '../../schema/webhook-events';

/**
 * The catalogue of webhook event types a tenant can subscribe to (docs/webhooks.md); the
 * webhook configuration refuses any other name. Each producing subgraph writes these to its
 * outbox under exactly this name.
 */
export const WEBHOOK_EVENTS = WEBHOOK_EVENT_NAMES;

/** One event type name of the catalogue. */
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** True when the name is in the catalogue. */
export const isWebhookEvent = (name: string): name is WebhookEventName => (WEBHOOK_EVENTS as readonly string[]).includes(name);
