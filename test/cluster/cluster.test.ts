import { clientRequest, loadBalancerStats } from '../../bench/cluster/client';
import { clusterUnavailable, startCluster, strayListeners, type Cluster } from '../../bench/cluster/cluster';
import { harnessNamespaces } from '../../bench/cluster/network';

const reason = clusterUnavailable();
if (reason) console.log(`cluster harness tests skipped: ${reason}`);
const describeCluster = reason ? describe.skip : describe;

describeCluster('a cluster of test hosts (network namespaces, HAProxy, replicas)', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster();
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

  it('leaves no namespace and no process behind', async () => {
    const pids = [...cluster.processes.values()].map((p) => p.spec.name);
    await cluster.teardown();
    expect(harnessNamespaces()).toEqual([]);
    expect([...cluster.processes.values()].filter((p) => p.running).map((p) => p.spec.name)).toEqual([]);
    expect(pids.length).toBeGreaterThan(10);
  }, 60_000);
});
