import { DEFAULT_RETRY_SCHEDULE_SECONDS, nextAttemptDelayMs, parseRetryAfter, parseSchedule } from '../../../../../subgraphs/tenant/webhooks/schedule';

describe('webhook retry schedule', () => {
  it('follows the retry schedule of docs/webhooks.md: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h, then gives up', () => {
    expect(DEFAULT_RETRY_SCHEDULE_SECONDS).toEqual([5, 300, 1800, 7200, 18000, 36000, 86400]);
    expect(nextAttemptDelayMs(8, DEFAULT_RETRY_SCHEDULE_SECONDS, null)).toBeNull();
  });

  it('jitters within the last quarter of each step', () => {
    expect(nextAttemptDelayMs(1, [4], null, () => 0)).toBe(3000);
    expect(nextAttemptDelayMs(1, [4], null, () => 1)).toBe(4000);
    const seen = new Set(Array.from({ length: 50 }, () => nextAttemptDelayMs(2, [1, 300], null)));
    expect(seen.size).toBeGreaterThan(1);
    for (const delay of seen) expect(delay).toBeGreaterThanOrEqual(225_000);
  });

  it('honours a longer Retry-After', () => {
    expect(nextAttemptDelayMs(1, [1], 120, () => 0)).toBe(120_000);
    expect(nextAttemptDelayMs(1, [600], 1, () => 1)).toBe(600_000);
  });

  it('parses Retry-After seconds and HTTP dates', () => {
    expect(parseRetryAfter('30')).toBe(30);
    expect(parseRetryAfter(new Date(Date.now() + 10_000).toUTCString())).toBeGreaterThanOrEqual(9);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(null)).toBeNull();
  });

  it('reads a schedule from configuration', () => {
    expect(parseSchedule('1, 2,4')).toEqual([1, 2, 4]);
    expect(parseSchedule(undefined)).toBe(DEFAULT_RETRY_SCHEDULE_SECONDS);
    expect(() => parseSchedule('1,x')).toThrow('WEBHOOK_RETRY_SCHEDULE');
  });
});

describe('event catalogue in the API description', () => {
  it('lists every subscribable event as an OpenAPI webhook with the Standard Webhooks headers', () => {
    const { webhooksSection } = require('../../../../../rest-bridge/openapi-webhooks');
    const { WEBHOOK_EVENT_NAMES } = require('../../../../../schema/webhook-events');
    const section = webhooksSection();
    expect(Object.keys(section)).toEqual([...WEBHOOK_EVENT_NAMES, 'webhook.test']);
    const activated = section['gift_card.activated'].post;
    expect(activated.parameters.map((p: { name: string }) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    expect(activated.requestBody.content['application/json'].schema.properties.type).toEqual({ const: 'gift_card.activated' });
  });
});
