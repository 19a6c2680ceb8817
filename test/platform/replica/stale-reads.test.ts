import { randomUUID } from 'node:crypto';
import { execute, parse } from 'graphql';
import { register } from 'prom-client';
import { freePort } from '../../../gateway/database/free-port';
import { replicaMonitorOf } from '../../../platform/replica/replica-monitor';
import { startSubgraph, type RunningSubgraph } from '../../../platform/subgraph-runtime';
import { analyticsSubgraph } from '../../../subgraphs/analytics';
import { parseMetrics, sampleValue } from '../../utils/metrics-text';
import { replicaDatabase } from '../../utils/replica-database';
import { startTcpProxy, type TcpProxy } from '../../utils/tcp-proxy';

/*
 * The "replica" is a second database on the test server (test/utils/replica-database.ts), reached
 * through a TCP proxy the test cuts to make it go away as a killed or partitioned replica would. A
 * server not in recovery reports no lag (platform/replica/replica-lag.ts), so it counts as a
 * replica within its bound; the bound itself is exercised against a real streaming replica by the
 * cluster suite (test/cluster/cluster.test.ts).
 */
const primaryUrl = process.env.DATABASE_URL!;
let replicaUrl: string;

const scrape = async () => parseMetrics(await register.metrics());
const reads = async (connection: string) => sampleValue(await scrape(), 'hpp_db_stale_reads_total', { pool: 'analytics', connection });

function runner(subgraph: RunningSubgraph, tenantId: string) {
  return async (query: string) => {
    const result = await execute({ schema: subgraph.schema, document: parse(query), contextValue: subgraph.context({ tenantId, requestId: 'test' }) });
    expect(result.errors).toBeUndefined();
    return result.data as any;
  };
}

const CREATE = 'mutation { createDashboard(input: { name: "Fresh" }) { id name } }';
const LISTS = '{ dashboards { totalCount } widgets { totalCount } campaigns { totalCount } }';

beforeAll(async () => {
  replicaUrl = await replicaDatabase();
}, 120_000);

describe('analytics with a replica within its lag bound', () => {
  let subgraph: RunningSubgraph;
  let proxy: TcpProxy;
  const tenant = randomUUID();

  beforeAll(async () => {
    const target = new URL(replicaUrl);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const proxied = Object.assign(new URL(replicaUrl), { hostname: '127.0.0.1', port: String(proxy.port) }).toString();
    subgraph = await startSubgraph(analyticsSubgraph, primaryUrl, { migrate: false, replica: { url: proxied, maxLagMs: 5_000 } });
    await subgraph.seedDemo(tenant);
    await replicaMonitorOf(subgraph.orm.em)!.probeNow();
  });
  afterAll(async () => {
    await subgraph?.close();
    await proxy?.close();
  });

  it('lists read the replica; a write and a lookup by id read the primary', async () => {
    const run = runner(subgraph, tenant);
    const before = await reads('replica');
    // The seeded dashboards and campaigns are on the primary only: the lists come from the replica.
    expect(await run(LISTS)).toEqual({ dashboards: { totalCount: 0 }, widgets: { totalCount: 0 }, campaigns: { totalCount: 0 } });
    expect(await reads('replica')).toBe(before + 3);
    const created = (await run(CREATE)).createDashboard;
    expect(created.name).toBe('Fresh');
    // Read-your-writes: the lookup a client makes after a write answers from the primary.
    expect((await run(`{ dashboard(id: "${created.id}") { name widgets { id } } }`)).dashboard).toEqual({ name: 'Fresh', widgets: [] });
    const samples = await scrape();
    expect(sampleValue(samples, 'hpp_db_replica_in_use', { pool: 'analytics' })).toBe(1);
    expect(sampleValue(samples, 'hpp_db_replica_lag_seconds', { pool: 'analytics' })).toBe(0);
  });

  it('revenue aggregates and analytics queries read the replica', async () => {
    const run = runner(subgraph, tenant);
    const before = await reads('replica');
    expect((await run('{ revenueBreakdownSummary(timezone: "UTC") { count } }')).revenueBreakdownSummary.count).toBe(0);
    await run('{ executeAnalyticsQuery(query: { measures: ["revenue.netAmount"] }) { data } }');
    expect(await reads('replica')).toBe(before + 2);
  });

  it('a replica that goes away mid-way: the read runs again on the primary, and reads stay there until it is back', async () => {
    const run = runner(subgraph, tenant);
    const monitor = replicaMonitorOf(subgraph.orm.em)!;
    // The replica's connections are reset and new ones refused, as when its host dies.
    await proxy.cut();
    const primaryBefore = await reads('primary');
    expect((await run('{ dashboards { totalCount } }')).dashboards.totalCount).toBe(4);
    expect(await reads('primary')).toBe(primaryBefore + 1);
    await monitor.probeNow();
    expect(monitor.connection()).toBe('write');
    const samples = await scrape();
    expect(sampleValue(samples, 'hpp_db_replica_in_use', { pool: 'analytics' })).toBe(0);
    expect(sampleValue(samples, 'hpp_db_replica_lag_seconds', { pool: 'analytics' })).toBeNaN();

    await proxy.restore();
    await monitor.probeNow();
    expect(monitor.connection()).toBe('read');
    expect((await run('{ dashboards { totalCount } }')).dashboards.totalCount).toBe(0);
  });
});

describe('analytics with an unreachable replica', () => {
  let subgraph: RunningSubgraph;
  const tenant = randomUUID();

  beforeAll(async () => {
    // A port nothing listens on: every connection to the "replica" is refused.
    const port = await freePort();
    subgraph = await startSubgraph(analyticsSubgraph, primaryUrl, { migrate: false, replica: { url: `postgres://postgres@127.0.0.1:${port}/none`, maxLagMs: 5_000 } });
    await subgraph.seedDemo(tenant);
    await replicaMonitorOf(subgraph.orm.em)!.probeNow();
  });
  afterAll(() => subgraph?.close());

  it('reads answer from the primary, and the metrics say so', async () => {
    const run = runner(subgraph, tenant);
    const before = await reads('primary');
    expect(await run(LISTS)).toEqual({ dashboards: { totalCount: 3 }, widgets: { totalCount: 10 }, campaigns: { totalCount: 3 } });
    expect((await run('{ revenueBreakdownSummary(timezone: "UTC") { count } }')).revenueBreakdownSummary.count).toBe(0);
    expect(await reads('primary')).toBe(before + 4);
    const samples = await scrape();
    expect(sampleValue(samples, 'hpp_db_replica_in_use', { pool: 'analytics' })).toBe(0);
    expect(sampleValue(samples, 'hpp_db_replica_lag_seconds', { pool: 'analytics' })).toBeNaN();
  });
});

describe('analytics without a replica (DATABASE_REPLICA_URL unset)', () => {
  it('has no monitor and shows no replica gauges: every read on the primary, as before', async () => {
    const subgraph = await startSubgraph(analyticsSubgraph, primaryUrl, { migrate: false });
    try {
      expect(replicaMonitorOf(subgraph.orm.em)).toBeUndefined();
      expect(subgraph.orm.em.getConnection('read')).toBe(subgraph.orm.em.getConnection('write'));
      expect((await scrape()).some((s) => s.name === 'hpp_db_replica_in_use')).toBe(false);
    } finally {
      await subgraph.close();
    }
  });
});
