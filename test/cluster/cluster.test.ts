import { clientRequest, loadBalancerStats } from '../../bench/cluster/client';
import { eventually } from '../utils/eventually';
import { clusterUnavailable, startCluster, strayListeners, type Cluster } from '../../bench/cluster/cluster';
import { FAULT_RUN_ENV, LATENCY_FAULT, faultCatalogue } from '../../bench/cluster/fault-catalogue';
import { percentile, prepareLoadTenant, runFault, type Fault, type FaultResult, type LoadTenant } from '../../bench/cluster/faults';
import { harnessNamespaces } from '../../bench/cluster/network';
import { REPLICA_PORT, SUBGRAPH_METRICS_PORT, type Host } from '../../bench/cluster/topology';
import { parseMetrics, sampleValue } from '../utils/metrics-text';

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
    cluster = await startCluster({ env: FAULT_RUN_ENV });
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

  it('reads analytics lists from the replica within its lag bound, from the primary past it, with the lag in metrics', async () => {
    const db = cluster.host('db');
    const analytics = cluster.hosts.filter((h) => h.subgraph === 'analytics');
    const scrape = (h: Host) => parseMetrics(cluster.exec(cluster.host('client'), 'curl', ['-s', '--max-time', '5', `http://${h.address}:${SUBGRAPH_METRICS_PORT}/metrics`]));
    const inUse = () => analytics.map((h) => sampleValue(scrape(h), 'hpp_db_replica_in_use', { pool: 'analytics' }));
    const replay = (action: 'pause' | 'resume') => cluster.exec(db, 'psql', ['-h', db.address, '-p', String(REPLICA_PORT), '-U', 'postgres', '-d', 'platform', '-tAc', `select pg_wal_replay_${action}()`]);
    const created = clientRequest(cluster, '/admin/tenants', { method: 'POST', headers: { authorization: `Bearer ${cluster.operatorToken}` }, body: { name: 'Replica clinic' } });
    const { tenant, apiKey } = JSON.parse(created.body);
    const headers = { TENANT: tenant.id, 'API-KEY': apiKey };
    const listed = () => clientRequest(cluster, '/analytics/dashboards?per_page=100', { headers }).body;
    const create = (name: string) => expect(clientRequest(cluster, '/analytics/dashboards', { method: 'POST', headers, body: { name } }).status).toBe(201);

    await eventually(() => inUse().every((v) => v === 1), { what: 'both analytics hosts reading from the replica' });
    for (const h of analytics) expect(sampleValue(scrape(h), 'hpp_db_replica_lag_seconds', { pool: 'analytics' })).toBeLessThan(2);
    create('Replicated');
    // The list comes from the replica, a moment behind the write.
    await eventually(() => listed().includes('Replicated'), { what: 'the new dashboard listed' });
    const replicaReads = analytics.reduce((sum, h) => sum + sampleValue(scrape(h), 'hpp_db_stale_reads_total', { pool: 'analytics', connection: 'replica' }), 0);
    expect(replicaReads).toBeGreaterThan(0);

    // Replay paused, the replica falls behind the next write; past the 2 s bound lists come from the primary, which has it.
    replay('pause');
    try {
      create('Written while replay paused');
      await eventually(() => inUse().every((v) => v === 0), { timeoutMs: 30_000, what: 'both analytics hosts back on the primary' });
      expect(listed()).toContain('Written while replay paused');
      for (const h of analytics) expect(sampleValue(scrape(h), 'hpp_db_replica_lag_seconds', { pool: 'analytics' })).toBeGreaterThan(2);
    } finally {
      replay('resume');
    }
    await eventually(() => inUse().every((v) => v === 1), { timeoutMs: 30_000, what: 'both analytics hosts on the replica again' });
  });

  describe('under load, one fault at a time (bench/cluster/fault-catalogue.ts)', () => {
    let tenant: LoadTenant;
    // The steady run's read latency, against which the latency fault's is reported.
    let baselineP50 = NaN;
    let faults: Map<string, Fault>;
    const total = (tally: Record<string, number>) => Object.values(tally).reduce((a, b) => a + b, 0);
    const run = (prefix: string, seconds: number) => runFault(cluster, tenant, [...faults.values()].find((f) => f.name.startsWith(prefix))!, load(seconds));

    beforeAll(() => {
      tenant = prepareLoadTenant(cluster, 'Load clinic');
      faults = new Map(faultCatalogue(cluster).map((f) => [f.name, f]));
    });

    it('serves steady load with nothing failed, lost or doubled', async () => {
      const result = await run('none', 8);
      baselineP50 = percentile(result.report.read.latenciesMs, 50);
      expectNoWriteLostOrDoubled(result);
      expect([result.report.read.failed, result.report.dashboard.failed]).toEqual([{}, {}]);
    });

    it('loses only the requests in flight when a gateway is SIGKILLed (HAProxy takes it out)', async () => {
      const result = await run('gateway replica', 14);
      expectNoWriteLostOrDoubled(result);
      // Each loop has one request in flight at a time.
      expect(total(result.report.read.failed) + total(result.report.dashboard.failed)).toBeLessThanOrEqual(4);
    });

    it('moves queries to the other replica when a subgraph replica is SIGKILLed, and never repeats a mutation', async () => {
      const result = await run('analytics replica', 14);
      expectNoWriteLostOrDoubled(result);
      expect(result.report.read.failed).toEqual({});
      // A dashboard POST sent to the dead replica is a 503, not retried on the other.
      expect(Object.keys(result.report.dashboard.failed).filter((cause) => cause !== '503')).toEqual([]);
    });

    it('answers 503 while the primary is down and recovers by itself', async () => {
      const result = await run('PostgreSQL primary', 16);
      expectNoWriteLostOrDoubled(result);
      const causes = Object.keys({ ...result.report.read.failed, ...result.report.dashboard.failed });
      expect(causes.filter((cause) => cause !== '503')).toEqual([]);
      // After the restart the service answers again with no process restarted by hand.
      expect(clientRequest(cluster, '/readyz').status).toBe(200);
    });

    it('keeps serving with Redis cut off (rate limits fall back to each process)', async () => {
      const result = await run('Redis cut off', 14);
      expectNoWriteLostOrDoubled(result);
      expect([result.report.read.failed, result.report.dashboard.failed]).toEqual([{}, {}]);
    });

    it('still serves with 20 ms latency and 1% loss on every host, and says what the latency added', async () => {
      const result = await run(LATENCY_FAULT, 10);
      expectNoWriteLostOrDoubled(result);
      expect(result.report.read.failed).toEqual({});
      // The delayers are stopped and gone with the fault.
      expect([...cluster.processes.keys()].filter((name) => name.startsWith('delay-'))).toEqual([]);
      const p50 = percentile(result.report.read.latenciesMs, 50);
      console.log(`${result.fault}: read p50 ${p50.toFixed(1)} ms (steady run ${baselineP50.toFixed(1)} ms: ${(p50 - baselineP50).toFixed(1)} ms added per request), p99 ${percentile(result.report.read.latenciesMs, 99).toFixed(1)} ms`);
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

  it('refuses a session ended through one gateway on every gateway', async () => {
    const operator = { authorization: `Bearer ${cluster.operatorToken}` };
    const tenant = JSON.parse(clientRequest(cluster, '/admin/tenants', { method: 'POST', headers: operator, body: { name: 'Session clinic' } }).body).tenant;
    const key = JSON.parse(clientRequest(cluster, `/admin/tenants/${tenant.id}/api-keys`, { method: 'POST', headers: operator, body: { name: 'inviter' } }).body);
    const invite = { query: 'mutation($input: InviteUserInput!) { inviteUser(input: $input) { invitationToken } }', variables: { input: { email: 'analyst@example.com', role: 'ANALYST' } } };
    const invited = JSON.parse(clientRequest(cluster, '/graphql', { method: 'POST', headers: { TENANT: tenant.id, 'API-KEY': key.apiKey }, body: invite }).body);
    const password = 'correct horse battery staple';
    expect(clientRequest(cluster, '/auth/invitations/accept', { method: 'POST', body: { token: invited.data.inviteUser.invitationToken, password } }).status).toBe(200);
    const gateways = cluster.hosts.filter((h) => h.role === 'gateway').map((h) => `http://${h.address}:4000`);
    const signedIn = clientRequest(cluster, '/auth/sign-in', { method: 'POST', base: gateways[1], body: { tenantId: tenant.id, email: 'analyst@example.com', password, bearer: true } });
    expect(signedIn.status).toBe(200);
    const bearer = { authorization: `Bearer ${JSON.parse(signedIn.body).token}` };
    const ask = (base: string) => clientRequest(cluster, '/auth/session', { base, headers: bearer }).status;
    expect(gateways.map(ask)).toEqual([200, 200]);
    expect(clientRequest(cluster, '/auth/sign-out', { method: 'POST', base: gateways[0], headers: bearer }).status).toBe(204);
    const started = Date.now();
    await eventually(() => gateways.map(ask).every((status) => status === 401), { what: 'both gateways refusing the ended session' });
    console.log(`session end: refused by both gateways ${Date.now() - started} ms after the sign-out answered`);
  });

  it('leaves no namespace and no process behind', async () => {
    const pids = [...cluster.processes.values()].map((p) => p.spec.name);
    await cluster.teardown();
    expect(harnessNamespaces()).toEqual([]);
    expect([...cluster.processes.values()].filter((p) => p.running).map((p) => p.spec.name)).toEqual([]);
    expect(pids.length).toBeGreaterThan(10);
  }, 60_000);
});
