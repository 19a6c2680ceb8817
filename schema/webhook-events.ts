/**
 * The webhook event catalogue (docs/webhooks.md, issue 7): the names a tenant can subscribe to,
 * what each means, and the keys of its `data`. Producers write exactly these names to their
 * outbox; the webhook configuration refuses any other; docs/webhooks.md and OpenAPI list them from here.
 */
export const WEBHOOK_EVENT_CATALOGUE = {
  'tenant.updated': { description: "The tenant's profile or settings changed.", data: ['id', 'changedFields'] },
  'webhook_config.updated': { description: 'The webhook configuration changed (never carries the secret).', data: ['url', 'enabled', 'events', 'secretRotated'] },
  'payment_method.created': { description: 'A payment method was added to a patient.', data: ['paymentMethodId', 'patientId', 'type', 'brand', 'last4', 'isDefault'] },
  'gift_card.issued': { description: 'A gift card was issued (PENDING); never carries the card code.', data: ['giftCardId', 'status', 'initialValue', 'purchasingPatientId', 'recipientPatientId', 'scheduledSendDate'] },
  'gift_card.activated': { description: 'A PENDING gift card became ACTIVE.', data: ['giftCardId', 'activatedAt', 'currentBalance', 'notificationQueued'] },
  'member.payment_succeeded': { description: "A member's manual payment succeeded.", data: ['paymentId', 'memberId', 'amountCents', 'status', 'failureReason'] },
  'member.payment_failed': { description: "A member's manual payment was declined.", data: ['paymentId', 'memberId', 'amountCents', 'status', 'failureReason'] },
  'campaign.updated': { description: 'A campaign changed.', data: ['id', 'changedFields'] },
  'opportunity.created': { description: "A lead arrived through a campaign's webhook.", data: ['id', 'campaignId'] },
  'dashboard.created': { description: 'An analytics dashboard was created.', data: ['id', 'name', 'locationId'] },
  'dashboard.deleted': { description: 'An analytics dashboard (and its widgets) was deleted.', data: ['id'] },
} as const satisfies Record<string, { description: string; data: readonly string[] }>;

/** Every subscribable event name. */
export const WEBHOOK_EVENT_NAMES = Object.keys(WEBHOOK_EVENT_CATALOGUE) as (keyof typeof WEBHOOK_EVENT_CATALOGUE)[];

/** Sent by `sendTestWebhookEvent` whatever the subscription. */
export const TEST_EVENT = 'webhook.test';
