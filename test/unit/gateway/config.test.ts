import { ConfigError, loadConfig } from '../../../gateway/config';

describe('configuration', () => {
  it('has working defaults for all-in-one mode', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ mode: 'all-in-one', port: 4000, databaseUrl: null, rateLimit: { points: 600, windowSeconds: 60 }, workers: 1 });
  });

  it('reads WEB_CONCURRENCY as the number of HTTP workers, 1 to 64', () => {
    expect(loadConfig({ WEB_CONCURRENCY: '2' }).workers).toBe(2);
    for (const bad of ['0', '65', 'two', '1.5']) {
      expect(() => loadConfig({ WEB_CONCURRENCY: bad })).toThrow(/WEB_CONCURRENCY must be a whole number from 1 to 64/);
    }
  });

  it('derives the speed plumbing switches from SPEED_PLUMBING alone', () => {
    expect(loadConfig({})).toMatchObject({ graphqlDedup: true, restDirect: true, restCompiled: true });
    expect(loadConfig({ SPEED_PLUMBING: '-rest-direct' })).toMatchObject({ graphqlDedup: true, restDirect: false, restCompiled: true });
    expect(loadConfig({ SPEED_PLUMBING: '-rest-compiled,-inflight-dedup' })).toMatchObject({ graphqlDedup: false, restDirect: true, restCompiled: false });
    expect(loadConfig({ SPEED_PLUMBING: 'rest-direct' })).toMatchObject({ graphqlDedup: false, restDirect: true, restCompiled: false });
    expect(loadConfig({ SPEED_PLUMBING: 'off' })).toMatchObject({ graphqlDedup: false, restDirect: false, restCompiled: false });
  });

  it('refuses the switches SPEED_PLUMBING replaced, naming the piece, whatever their value', () => {
    try {
      loadConfig({ REST_DIRECT: '0', REST_COMPILED: '1', GRAPHQL_DEDUP: 'off' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        'GRAPHQL_DEDUP is gone: use SPEED_PLUMBING=-inflight-dedup to turn inflight-dedup off (it is on by default), and unset GRAPHQL_DEDUP',
        'REST_DIRECT is gone: use SPEED_PLUMBING=-rest-direct to turn rest-direct off (it is on by default), and unset REST_DIRECT',
        'REST_COMPILED is gone: use SPEED_PLUMBING=-rest-compiled to turn rest-compiled off (it is on by default), and unset REST_COMPILED',
      ]);
    }
    // Empty is unset, as for every other setting.
    expect(loadConfig({ REST_DIRECT: '' }).restDirect).toBe(true);
  });

  it('reports every problem at once', () => {
    try {
      loadConfig({ MODE: 'distributed', PORT: 'eighty', RATE_LIMIT_PER_WINDOW: '-1' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems;
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.stringContaining('PORT'),
          expect.stringContaining('RATE_LIMIT_PER_WINDOW'),
          expect.stringContaining('SUBGRAPH_TENANT_URL'),
          expect.stringContaining('INTERNAL_SECRET'),
          expect.stringContaining('DATABASE_URL'),
        ]),
      );
    }
  });
  it('reads comma-separated subgraph replicas, and names the variable of a bad entry', () => {
    const distributed = { MODE: 'distributed', DATABASE_URL: 'postgres://db/hpp', INTERNAL_SECRET: 'secret', SUBGRAPH_TENANT_URL: 'http://t:4001', SUBGRAPH_BILLING_URL: 'http://b:4002', SUBGRAPH_NOTES_URL: 'http://n:4004' };
    const config = loadConfig({ ...distributed, SUBGRAPH_ANALYTICS_URL: 'http://analytics-1:4003, http://analytics-2:4003' });
    expect(config.subgraphUrls.analytics).toEqual(['http://analytics-1:4003/', 'http://analytics-2:4003/']);
    expect(config.subgraphUrls.tenant).toEqual(['http://t:4001/']);
    expect(config.subgraphTimeoutMs).toBe(30_000);
    try {
      loadConfig({ ...distributed, SUBGRAPH_ANALYTICS_URL: 'http://analytics-1:4003;http://analytics-2:4003,ftp://x', SUBGRAPH_TIMEOUT_MS: '70000' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual(
        expect.arrayContaining([
          'SUBGRAPH_ANALYTICS_URL (entry 2 of 2, "ftp://x") must be an http:// or https:// URL',
          'IDEMPOTENCY_LOCK_SECONDS (60) must be longer than SUBGRAPH_TIMEOUT_MS (70000 ms)',
        ]),
      );
    }
    expect(() => loadConfig({ ...distributed, SUBGRAPH_ANALYTICS_URL: 'analytics:4003' })).toThrow(/SUBGRAPH_ANALYTICS_URL \("analytics:4003"\)/);
  });

  it('reads the analytics read replica for the in-process subgraphs; without DATABASE_URL there is none to name', () => {
    expect(loadConfig({}).replica).toEqual({ url: null, maxLagMs: 5_000 });
    expect(loadConfig({ DATABASE_URL: 'postgres://db/hpp', DATABASE_REPLICA_URL: 'postgres://replica/hpp', REPLICA_MAX_LAG_MS: '1000' }).replica).toEqual({ url: 'postgres://replica/hpp', maxLagMs: 1_000 });
    expect(() => loadConfig({ DATABASE_REPLICA_URL: 'postgres://replica/hpp' })).toThrow(/DATABASE_REPLICA_URL needs DATABASE_URL/);
  });
});
