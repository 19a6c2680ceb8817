import { clientRequest, loadBalancerStats } from '../../bench/cluster/client';
import { eventually } from '../utils/eventually';
import { clusterUnavailable, startCluster, strayListeners, type Cluster } from '../../bench/cluster/cluster';
import { percentile, prepareLoadTenant, runFault, type FaultResult, type LoadTenant } from '../../bench/cluster/faults';
import { harnessNamespaces, kernelHasNetem, setImpairment } from '../../bench/cluster/network';

/** Short steady load: four loops, a request every 50 ms each, for `seconds`. */
const load = (seconds: number) => ({ seconds, concurrency: 4, pauseMs: 50 });

/** Nothing acknowledged lost or written twice, and every payment (retried under its key) succeeded. */
function expectNoWriteLostOrDoubled(result: FaultResult): void {
  expect(result.writes.dashboardsFound).toBe(result.writes.dashboardsAcknowledged);
  expect(result.writes.paymentsFound).toBe(result.writes.paymentsAcknowledged);
  expect(result.writes.doubled).toBe(0);
  expect(result.writes.dashboardsDoubled).toBe(0);
  expect(result.report.payment.failed).toEqual({});
  expect(result.report.read.sent).toBeGreaterThan(20);
}

const reason = clusterUnavailable();
if (reason) console.log(`cluster harness tests skipped: ${reason}`);
const describeCluster = reason ? describe.skip : describe;

describeCluster('a cluster of test hosts (network namespaces, HAProxy, replicas)', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    // Load from one tenant for a minute and more: far past the default 600 requests a window.
    cluster = await startCluster({ env: { RATE_LIMIT_PER_WINDOW: '1000000' } });
  }, 400_000);

  afterAll(async () => {
    await cluster?.teardown();
  }, 60_000);

  it('binds every process to its own host address, none to 0.0.0.0', () => {
    expect(strayListeners(cluster)).toEqual([]);
    expect(cluster.exec(cluster.host('gw1'), 'ss', ['-Hltn']).trim()).toContain(`${cluster.host('gw1').address}:4000`);
  });

  it('serves through the load balancer from both gateways', async () => {
    const created = clientRequest(cluster, '/admin/tenants', { method: 'POST', headers: { authorization: `Bearer ${cluster.operatorToken}` }, body: { name: 'Cluster clinic' } });
    expect(created.status).toBe(201);
    const { tenant, apiKey } = JSON.parse(created.body);
    const before = await loadBalancerStats(cluster);
    for (let i = 0; i < 6; i++) {
      const answer = clientRequest(cluster, '/analytics/dashboards', { headers: { TENANT: tenant.id, 'API-KEY': apiKey } });
      expect(answer.status).toBe(200);
    }
    const after = await loadBalancerStats(cluster);
    expect(after.map((s) => s.status)).toEqual(['UP', 'UP']);
    for (const server of after) expect(server.served - before.find((s) => s.server === server.server)!.served).toBeGreaterThanOrEqual(2);
  });

  it('streams the primary to its replica', () => {
    const db = cluster.host('db');
    const rows = cluster.exec(db, 'psql', ['-h', db.address, '-U', 'postgres', '-d', 'platform', '-tAc', 'select state from pg_stat_replication']);
    expect(rows.trim()).toBe('streaming');
  });

  describe('under load', () => {
    let tenant: LoadTenant;
    let baselineP50 = 0;

    beforeAll(() => {
      tenant = prepareLoadTenant(cluster, 'Load clinic');
    });

    it('serves steady load with nothing failed, lost or doubled', async () => {
      const result = await runFault(cluster, tenant, { name: 'none', atSeconds: 0, inject: () => undefined }, load(8));
      expectNoWriteLostOrDoubled(result);
      expect(result.report.read.failed).toEqual({});
      expect(result.report.dashboard.failed).toEqual({});
      baselineP50 = percentile(result.report.read.latenciesMs, 50);
    });

    it('loses only the requests in flight when a gateway is SIGKILLed (HAProxy takes it out)', async () => {
      const gateway = cluster.processes.get('gw1')!;
      const result = await runFault(
        cluster,
        tenant,
        { name: 'gateway SIGKILL', atSeconds: 4, inject: () => gateway.signal('SIGKILL'), healAfterSeconds: 6, heal: () => gateway.start() },
        load(16),
      );
      expectNoWriteLostOrDoubled(result);
      // Each loop has one request in flight at a time.
      const failed = (tally: Record<string, number>) => Object.values(tally).reduce((a, b) => a + b, 0);
      expect(failed(result.report.read.failed) + failed(result.report.dashboard.failed)).toBeLessThanOrEqual(4);
    });

    it('still serves with 20 ms latency and 1% loss on every host (loss only where the kernel has no netem)', async () => {
      const impaired = cluster.hosts.filter((h) => h.role !== 'client');
      const netem = kernelHasNetem();
      if (!netem) console.log('netem: this kernel has no sch_netem; 1% loss by iptables, no added delay');
      const result = await runFault(
        cluster,
        tenant,
        {
          name: 'netem 20 ms 1%',
          atSeconds: 0,
          inject: () => impaired.forEach((h) => setImpairment(h, { delayMs: 20, lossPercent: 1 }, netem)),
          healAfterSeconds: 10,
          heal: () => impaired.forEach((h) => setImpairment(h, null, netem)),
        },
        load(10),
      );
      expectNoWriteLostOrDoubled(result);
      expect(result.report.read.failed).toEqual({});
      console.log(`netem: read p50 ${percentile(result.report.read.latenciesMs, 50).toFixed(1)} ms against ${baselineP50.toFixed(1)} ms unimpaired`);
    });
  });

  it('refuses a key revoked through one gateway on every gateway', async () => {
    const operator = { authorization: `Bearer ${cluster.operatorToken}` };
    const tenant = JSON.parse(clientRequest(cluster, '/admin/tenants', { method: 'POST', headers: operator, body: { name: 'Revocation clinic' } }).body).tenant;
    const key = JSON.parse(clientRequest(cluster, `/admin/tenants/${tenant.id}/api-keys`, { method: 'POST', headers: operator, body: { name: 'to revoke' } }).body);
    const gateways = cluster.hosts.filter((h) => h.role === 'gateway').map((h) => `http://${h.address}:4000`);
    const ask = (base: string) => clientRequest(cluster, '/analytics/dashboards', { base, headers: { TENANT: tenant.id, 'API-KEY': key.apiKey } }).status;
    // Each gateway has the key in its cache before the revocation.
    expect(gateways.map(ask)).toEqual([200, 200]);
    const revoked = clientRequest(cluster, `/admin/api-keys/${key.id}`, { method: 'DELETE', headers: operator, base: gateways[0] });
    expect(revoked.status).toBe(204);
    const started = Date.now();
    await eventually(() => gateways.map(ask).every((status) => status === 401), { what: 'both gateways refusing the revoked key' });
    console.log(`key revocation: refused by both gateways ${Date.now() - started} ms after the DELETE answered`);
  });

  it('leaves no namespace and no process behind', async () => {
    const pids = [...cluster.processes.values()].map((p) => p.spec.name);
    await cluster.teardown();
    expect(harnessNamespaces()).toEqual([]);
    expect([...cluster.processes.values()].filter((p) => p.running).map((p) => p.spec.name)).toEqual([]);
    expect(pids.length).toBeGreaterThan(10);
  }, 60_000);
});
