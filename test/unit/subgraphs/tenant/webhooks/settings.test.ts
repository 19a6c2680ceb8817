import { readWebhookSettings } from '../../../../../subgraphs/tenant/webhooks/settings';

describe('webhook settings: the endpoint share, breaker and disabling thresholds', () => {
  it('defaults to a share of 4, a breaker after 5 failures for 60 s, and disabling after 20 failures over 24 h', () => {
    const { settings, problems } = readWebhookSettings({});
    expect(problems).toEqual([]);
    expect(settings).toMatchObject({ concurrency: 32, endpointConcurrency: 4, breakerFailures: 5, breakerCooldownSeconds: 60, disableAfterFailures: 20, disableAfterHours: 24 });
  });

  it('reads them, and reports every bad one at once', () => {
    const env = { WEBHOOK_ENDPOINT_CONCURRENCY: '2', WEBHOOK_BREAKER_FAILURES: '3', WEBHOOK_BREAKER_COOLDOWN_SECONDS: '10', WEBHOOK_DISABLE_AFTER_FAILURES: '50', WEBHOOK_DISABLE_AFTER_HOURS: '0' };
    expect(readWebhookSettings(env).settings).toMatchObject({ endpointConcurrency: 2, breakerFailures: 3, breakerCooldownSeconds: 10, disableAfterFailures: 50, disableAfterHours: 0 });
    const bad = readWebhookSettings({ WEBHOOK_ENDPOINT_CONCURRENCY: '0', WEBHOOK_BREAKER_COOLDOWN_SECONDS: 'soon' });
    expect(bad.settings).toBeNull();
    expect(bad.problems).toHaveLength(2);
  });
});
