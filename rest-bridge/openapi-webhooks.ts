import { TEST_EVENT, WEBHOOK_EVENT_CATALOGUE } from '../schema/webhook-events';

const SIGNATURE_HEADERS = [
  { name: 'webhook-id', description: 'The event id; the same on every retry of one event (deduplicate on it)' },
  { name: 'webhook-timestamp', description: 'Unix seconds of this attempt' },
  { name: 'webhook-signature', description: '`v1,<base64 HMAC-SHA256>` over `id.timestamp.body` with the endpoint secret (`whsec_...`)' },
].map(({ name, description }) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } }));

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event of the catalogue, as the receiver
 * gets it (Standard Webhooks 1.0: signed headers, body `{type, timestamp, livemode, data}`).
 */
export function webhooksSection(): Record<string, unknown> {
  const entries = [...Object.entries(WEBHOOK_EVENT_CATALOGUE), [TEST_EVENT, { description: 'Sent by the sendTestWebhookEvent mutation.', data: ['message'] }] as const];
  return Object.fromEntries(
    entries.map(([type, event]) => [
      type,
      {
        post: {
          // `tenantUpdatedWebhook` for `tenant.updated`: unique, and what a generated receiver names its handler.
          operationId: type.replace(/[._]([a-z])/g, (_m, c: string) => c.toUpperCase()) + 'Webhook',
          summary: event.description,
          description:
            'Delivered to the tenant\'s configured URL. Any 2xx is success; timeouts (10 s), network errors, 3xx, 429 and 5xx are retried with backoff ' +
            '(about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h; `Retry-After` honoured); 410 disables the endpoint.',
          parameters: SIGNATURE_HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['type', 'timestamp', 'livemode', 'data'],
                  properties: {
                    type: { const: type },
                    timestamp: { type: 'string', format: 'date-time', description: 'When the change happened' },
                    livemode: { type: 'boolean', description: 'False when a test key caused it: the event is of the tenant\'s test data (docs/api.md, Test mode)' },
                    data: { type: 'object', required: [...event.data], properties: Object.fromEntries(event.data.map((key) => [key, {}])) },
                  },
                },
              },
            },
          },
          responses: { '2XX': { description: 'Received' }, '410': { description: 'Gone: the endpoint is disabled and receives nothing more' } },
        },
      },
    ]),
  );
}
