import { configureAnalytics, readAnalyticsSettings } from '../../../../subgraphs/analytics/analytics-deps';

describe("the analytics subgraph's fair-share settings", () => {
  it('default to 2 per tenant, the pool less 2 per process, and a 3 s wait', () => {
    expect(readAnalyticsSettings({})).toEqual({ settings: { statementTimeoutMs: 5_000, tenantConcurrency: 2, concurrency: 8, queueWaitMs: 3_000 }, problems: [] });
    expect(readAnalyticsSettings({ DB_POOL_MAX: '4' }).settings.concurrency).toBe(2);
    expect(readAnalyticsSettings({ DB_POOL_MAX: '2' }).settings.concurrency).toBe(1);
  });

  it('read each variable and list every wrong value', () => {
    const env = { ANALYTICS_TENANT_CONCURRENCY: '3', ANALYTICS_CONCURRENCY: '5', ANALYTICS_QUEUE_WAIT_MS: '250', ANALYTICS_STATEMENT_TIMEOUT_MS: '1000' };
    expect(readAnalyticsSettings(env)).toEqual({ settings: { statementTimeoutMs: 1_000, tenantConcurrency: 3, concurrency: 5, queueWaitMs: 250 }, problems: [] });
    expect(readAnalyticsSettings({ ANALYTICS_TENANT_CONCURRENCY: '0', ANALYTICS_CONCURRENCY: 'many', ANALYTICS_QUEUE_WAIT_MS: '1.5' }).problems).toEqual([
      'ANALYTICS_TENANT_CONCURRENCY must be a whole number from 1 to 1000 (got "0")',
      'ANALYTICS_CONCURRENCY must be a whole number from 1 to 1000 (got "many")',
      'ANALYTICS_QUEUE_WAIT_MS must be a whole number of milliseconds from 1 to 60000 (got "1.5")',
    ]);
  });

  it('build a fair queue of its own for each running copy', () => {
    const settings = readAnalyticsSettings({ ANALYTICS_TENANT_CONCURRENCY: '3' }).settings;
    const one = configureAnalytics(settings);
    expect(one.expensive.limits).toEqual({ perKey: 3, total: 8, maxWaitMs: 3_000, maxQueuedPerKey: 64 });
    expect(configureAnalytics(settings).expensive).not.toBe(one.expensive);
  });
});
