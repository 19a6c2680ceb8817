import { isDeepStrictEqual } from 'node:util';
import { startApp } from './lib/app';
import { benchSetting, type BenchContext } from './lib/context';
import { startDistributed } from './lib/distributed';
import { hiveVersion, startHiveGateway } from './lib/hive-gateway';
import { describeFailures, isClean, runLoad, type LoadSummary, type LoadTarget } from './lib/load';
import { describeMachine } from './lib/machine';
import { treeCpuMs, treeRssMiB } from './lib/process-tree';
import { say } from './lib/progress';
import { createTenant, type BenchTenant } from './lib/tenant';
import { buildPeerReport, GATEWAYS, LOADS, QUERIES, type Cell, type Gateway, type Load, type PeerReport, type Query } from './peer-gateway-report';

const DOCUMENTS: Record<Query, string> = {
  publicTenant: 'query PublicTenant { publicTenant { id name timezone locale currency website phone primaryColor logoUrl receiptLogoUrl } }',
  merchantAccounts: 'query MerchantAccounts { merchantAccounts { id name isDefault cardProcessingFee perTransactionFeeCents locations { id name city } } }',
};

/**
 * Issue 21, part 2: the project's gateway in distributed mode, Hive Gateway in front of the same
 * subgraph services, and the all-in-one app, on two queries (one subgraph; two) and two loads
 * (one tenant's identical queries; the same spread over 50 tenants, one tenant per request in
 * turn). Measured side by side in BENCH_PEER_ROUNDS rounds (default 2), the gateways in reverse
 * order in every other round; each cell half of BENCH_DURATION.
 */
export async function benchPeerGateway(ctx: BenchContext): Promise<PeerReport> {
  const rounds = benchSetting(ctx, 'BENCH_PEER_ROUNDS', 2, 1);
  const tenantCount = ctx.smoke ? 3 : 50;
  const workers = ctx.app.workers;
  say(`peer-gateway: starting four subgraph services and the gateway in distributed mode (${workers} workers)`);
  const distributed = await startDistributed(ctx.databaseUrl, workers, ctx.teardown);
  say('peer-gateway: starting Hive Gateway and an all-in-one app with deduplication');
  // The all-in-one server as it runs by default, deduplication on like Hive's: the shared app runs without it (run.ts).
  // Its webhook dispatcher off: left on, it took other benchmarks' webhook jobs (and refused their http receivers).
  // Both start at once: nothing is measured before both are ready, and Hive's start is the longest step of a smoke run.
  const [hive, allInOne] = await Promise.all([
    startHiveGateway(distributed.subgraphUrls, distributed.secret, workers, ctx.teardown),
    ctx.app.dedup
      ? ctx.app
      : startApp(ctx.databaseUrl, workers, { SPEED_PLUMBING: 'on', WEBHOOK_DISPATCHER: 'off' }).then((app) => {
          ctx.teardown.add('all-in-one app with deduplication', () => app.child.stop());
          return app;
        }),
  ]);
  say(`peer-gateway: creating ${tenantCount} tenants with two locations and two merchant accounts each`);
  const tenants = await Promise.all(Array.from({ length: tenantCount }, (_, i) => seededTenant(ctx, i)));

  const urls: Record<Gateway, string> = { ours: distributed.gateway.url, hive: hive.url, allInOne: allInOne.url };
  const pids: Record<Gateway, number> = { ours: distributed.gateway.child.process.pid!, hive: hive.child.process.pid!, allInOne: allInOne.child.process.pid! };
  const subgraphPids = distributed.subgraphs.map((child) => child.process.pid!);
  const target = (gateway: Gateway, query: Query, load: Load): LoadTarget => {
    const headersOf = (tenant: BenchTenant) => tenant.headers;
    return {
      name: `${gateway} ${query} ${load}`,
      url: `${urls[gateway]}/graphql`,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headersOf(tenants[0]) },
      body: JSON.stringify({ query: DOCUMENTS[query] }),
      rotateHeaders: load === 'fiftyTenants' ? tenants.map(headersOf) : undefined,
    };
  };
  await assertSameAnswers(urls, tenants[0]);
  say('peer-gateway: the three gateways give the same answers');

  // Warm every gateway on both queries and every tenant (key caches, query plans, the JIT) before measuring any.
  if (ctx.warmupSeconds > 0) {
    for (const query of QUERIES) for (const gateway of GATEWAYS) await runLoad(target(gateway, query, 'fiftyTenants'), { ...ctx.shape, durationSeconds: Math.max(1, ctx.warmupSeconds / 2) });
  }
  const shape = { ...ctx.shape, durationSeconds: Math.max(1, ctx.shape.durationSeconds / 2) };
  const cells: Cell[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const query of QUERIES) {
      for (const load of LOADS) {
        const order = round % 2 === 1 ? GATEWAYS : [...GATEWAYS].reverse();
        for (const gateway of order) {
          const gatewayBefore = treeCpuMs(pids[gateway]);
          const subgraphsBefore = sum(subgraphPids.map(treeCpuMs));
          const run = await runLoad(target(gateway, query, load), shape);
          const cell: Cell = {
            round,
            gateway,
            query,
            load,
            run,
            gatewayCpuUs: ((treeCpuMs(pids[gateway]) - gatewayBefore) * 1000) / Math.max(1, run.total),
            subgraphCpuUs: gateway === 'allInOne' ? 0 : ((sum(subgraphPids.map(treeCpuMs)) - subgraphsBefore) * 1000) / Math.max(1, run.total),
          };
          cells.push(cell);
          say(`peer-gateway round ${round}: ${run.target}: ${Math.round(run.requestsPerSecond)} req/s, gateway CPU ${Math.round(cell.gatewayCpuUs)} us/req${failures(run)}`);
        }
      }
    }
  }
  const rssMiB = { ours: treeRssMiB(pids.ours), hive: treeRssMiB(pids.hive), allInOne: treeRssMiB(pids.allInOne) };
  const report = buildPeerReport(cells, rssMiB, {
    date: new Date(),
    machine: describeMachine(),
    workers,
    database: ctx.databaseLabel,
    shape,
    rounds,
    warmupSeconds: ctx.warmupSeconds,
    tenants: tenantCount,
    hiveVersion: hiveVersion(),
  });
  ctx.record('peer-gateway', report.markdown);
  // The services, Hive and the all-in-one app with deduplication are this benchmark's own: stopped now, so later benchmarks share the cores (and the job queue) with nothing idle of ours (teardown's stop is then a no-op).
  await Promise.all([hive.child.stop(), distributed.gateway.child.stop(), allInOne === ctx.app ? Promise.resolve() : allInOne.child.stop()]);
  await Promise.all(distributed.subgraphs.map((child) => child.stop()));
  return report;
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const failures = (run: LoadSummary) => (isClean(run) ? '' : `; ${describeFailures(run)}`);

/** A tenant with two locations and two merchant accounts serving them, made through the all-in-one app. */
async function seededTenant(ctx: BenchContext, i: number): Promise<BenchTenant> {
  const tenant = await createTenant(ctx.app.url, ctx.app.operatorToken, `Peer Bench Clinic ${i + 1}`);
  const gql = async (query: string, variables: Record<string, unknown>) => {
    const res = await fetch(`${ctx.app.url}/graphql`, { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
    const body = (await res.json()) as { data?: Record<string, { id: string }>; errors?: unknown };
    if (!res.ok || body.errors || !body.data) throw new Error(`seeding a benchmark tenant failed: ${res.status} ${JSON.stringify(body.errors)}`);
    return body.data;
  };
  const location = 'mutation($i: CreateLocationInput!) { createLocation(input: $i) { id } }';
  const harbor = (await gql(location, { i: { name: 'Harbor', addressLineOne: '1 Main St', city: 'Portland' } })).createLocation.id;
  const video = (await gql(location, { i: { name: 'Video', isVirtual: true } })).createLocation.id;
  const account = 'mutation($i: CreateMerchantAccountInput!) { createMerchantAccount(input: $i) { id } }';
  const fees = { cardProcessingFee: 2.9, perTransactionFeeCents: 30, inPersonCardProcessingFee: 2.6, inPersonPerTransactionFeeCents: 10 };
  await gql(account, { i: { name: 'Clinic', processorAccountId: `acct_peer_${tenant.tenantId}_1`, ...fees, locationIds: [harbor] } });
  await gql(account, { i: { name: 'Telehealth', processorAccountId: `acct_peer_${tenant.tenantId}_2`, ...fees, locationIds: [harbor, video] } });
  return tenant;
}

/** One request of each query to each gateway: comparing different answers (or errors) would mislead. */
async function assertSameAnswers(urls: Record<Gateway, string>, tenant: BenchTenant): Promise<void> {
  for (const query of QUERIES) {
    const answers: Partial<Record<Gateway, unknown>> = {};
    for (const gateway of GATEWAYS) {
      const res = await fetch(`${urls[gateway]}/graphql`, { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json' }, body: JSON.stringify({ query: DOCUMENTS[query] }) });
      const text = await res.text();
      if (!res.ok) throw new Error(`${gateway} answered ${res.status} to ${query} before the load started: ${text}`);
      answers[gateway] = JSON.parse(text);
    }
    if (!isDeepStrictEqual(answers.ours, answers.hive) || !isDeepStrictEqual(answers.allInOne, answers.hive)) {
      throw new Error(`the gateways disagree on ${query}: ${JSON.stringify(answers)}`);
    }
  }
}
