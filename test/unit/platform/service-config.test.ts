import { loadServiceConfig } from '../../../platform/service-config';
import { analyticsSubgraph } from '../../../subgraphs/analytics';

const base = { DATABASE_URL: 'postgres://app@db/app', INTERNAL_SECRET: 'secret', HOST: '10.0.0.7', LOG_LEVEL: 'silent' };

describe("a subgraph service's replica and metrics settings", () => {
  it('unset: no replica, no metrics port', () => {
    const { config, problems } = loadServiceConfig(base, analyticsSubgraph, 4003);
    expect(problems).toEqual([]);
    expect(config.replica).toEqual({ url: null, maxLagMs: 5_000 });
    expect(config.metricsPort).toBeNull();
  });

  it('reads DATABASE_REPLICA_URL, REPLICA_MAX_LAG_MS and METRICS_PORT on the service host by default', () => {
    const { config, problems } = loadServiceConfig({ ...base, DATABASE_REPLICA_URL: 'postgres://app@replica/app', REPLICA_MAX_LAG_MS: '2000', METRICS_PORT: '9464' }, analyticsSubgraph, 4003);
    expect(problems).toEqual([]);
    expect(config.replica).toEqual({ url: 'postgres://app@replica/app', maxLagMs: 2_000 });
    expect([config.metricsPort, config.metricsHost]).toEqual([9464, '10.0.0.7']);
  });

  it('lists wrong values with the rest', () => {
    const { problems } = loadServiceConfig({ ...base, REPLICA_MAX_LAG_MS: 'soon', METRICS_PORT: '4003' }, analyticsSubgraph, 4003);
    expect(problems).toEqual(['REPLICA_MAX_LAG_MS must be a whole number of milliseconds from 0 to 3600000 (got "soon")', 'METRICS_PORT must differ from PORT']);
  });
});
