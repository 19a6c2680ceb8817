import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { startApp, type AppUnderTest } from './lib/app';
import { startChild, type Child } from './lib/child';
import { freePort } from '../gateway/database/free-port';
import { SUBGRAPH_NAMES } from '../platform/subgraph-definition';
import { combineLoads, describeFailures, isClean, runLoad, type LoadSummary, type LoadTarget } from './lib/load';
import { clusterRssMiB, treeCpuMs } from './lib/process-tree';
import { say } from './lib/progress';
import { waitForUrl } from './lib/readiness';
import { SERVER_NODE_FLAGS } from './lib/server-flags';
import { createTenant, type BenchTenant } from './lib/tenant';
import { buildPlumbingReport, type PieceResult, type PlumbingCase } from './plumbing-report';
import { benchSetting, type BenchContext } from './lib/context';

const PUBLIC_TENANT = 'query PublicTenant { publicTenant { id name timezone locale currency website phone primaryColor logoUrl receiptLogoUrl } }';

/** Each piece, the load it is judged on, and the target it serves; `all` is every piece at once. */
const CASES: PlumbingCase[] = [
  { piece: 'all', mode: 'all-in-one', load: 'rest', serves: 'REST near the floor' },
  { piece: 'rest-direct', mode: 'all-in-one', load: 'rest', serves: 'REST near the floor' },
  { piece: 'rest-compiled', mode: 'all-in-one', load: 'rest', serves: 'REST near the floor' },
  { piece: 'read-pool', mode: 'all-in-one', load: 'rest', serves: 'REST near the floor' },
  { piece: 'slot-list', mode: 'all-in-one', load: 'rest', serves: 'REST near the floor (memory)' },
  { piece: 'rate-lease', mode: 'all-in-one', load: 'rest', serves: 'REST near the floor' },
  { piece: 'subgraph-fetcher', mode: 'distributed', load: 'graphql', serves: 'ahead of Hive Gateway' },
  { piece: 'inflight-dedup', mode: 'distributed', load: 'graphql', serves: 'ahead of Hive Gateway' },
];

/** Seconds of each side per round. */
const ROUND_SECONDS = 2;

/**
 * Issue 32: every piece of speed plumbing measured with and without it, side by side in one run.
 * For each piece two apps start alike but for SPEED_PLUMBING (`on` and `-<piece>`), warm up, then
 * take BENCH_PLUMBING_ROUNDS rounds of the same load in alternation (on, off, off, on, ...); server
 * CPU per request (the gateway's processes, plus the subgraph services' in distributed mode) and
 * resident memory per worker are compared as ratios, off / on.
 */
export async function benchPlumbing(ctx: BenchContext): Promise<{ valid: boolean; markdown: string }> {
  const rounds = benchSetting(ctx, 'BENCH_PLUMBING_ROUNDS', 5, 1);
  // The smoke run starts one pair (every piece on, every piece off) to show the benchmark still works.
  const only = ctx.smoke ? ['all'] : (process.env.BENCH_PLUMBING_ONLY ?? '').split(',').filter(Boolean);
  const tenant = await createTenant(ctx.app.url, ctx.app.operatorToken, 'Plumbing Bench Clinic');
  let services: Services | null = null;
  const results: PieceResult[] = [];
  for (const c of CASES.filter((one) => !only.length || only.includes(one.piece))) {
    if (c.mode === 'distributed') services ??= await startServices(ctx);
    const plumbing = { on: 'on', off: c.piece === 'all' ? 'off' : `-${c.piece}` };
    say(`plumbing ${c.piece}: starting two apps (SPEED_PLUMBING=${plumbing.on} and ${plumbing.off})`);
    const start = (value: string) => (c.mode === 'distributed' ? startGateway(ctx, services!, value) : startApp(ctx.databaseUrl, ctx.app.workers, { SPEED_PLUMBING: value, WEBHOOK_DISPATCHER: 'off', DB_POOL_MAX: '2' }));
    const apps = { on: await start(plumbing.on), off: await start(plumbing.off) };
    for (const side of ['on', 'off'] as const) ctx.teardown.add(`app (${c.piece} ${side})`, () => apps[side].child.stop());
    try {
      results.push(await measurePair(ctx, c, apps, tenant, services, rounds));
    } finally {
      await Promise.all([apps.on.child.stop(), apps.off.child.stop()]);
    }
  }
  if (services) await Promise.all(services.children.map((child) => child.stop()));
  const report = buildPlumbingReport(results, { workers: ctx.app.workers, rounds, roundSeconds: ROUND_SECONDS, connections: ctx.shape.connections, warmupSeconds: ctx.warmupSeconds, database: ctx.databaseLabel });
  ctx.record('plumbing', report.markdown);
  return report;
}

type Side = 'on' | 'off';

async function measurePair(ctx: BenchContext, c: PlumbingCase, apps: Record<Side, AppUnderTest>, tenant: BenchTenant, services: Services | null, rounds: number): Promise<PieceResult> {
  const rssAtStart = { on: worstWorker(apps.on), off: worstWorker(apps.off) };
  const target = (side: Side): LoadTarget =>
    c.load === 'rest'
      ? { name: side, url: `${apps[side].url}/tenant/public`, headers: tenant.headers }
      : { name: side, url: `${apps[side].url}/graphql`, method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json' }, body: JSON.stringify({ query: PUBLIC_TENANT }) };
  for (const side of ['on', 'off'] as const) if (ctx.warmupSeconds > 0) await runLoad(target(side), { ...ctx.shape, durationSeconds: ctx.warmupSeconds });
  const shape = { ...ctx.shape, durationSeconds: ROUND_SECONDS };
  const parts: Record<Side, LoadSummary[]> = { on: [], off: [] };
  const cpuMs: Record<Side, number[]> = { on: [], off: [] };
  const cpuOf = (side: Side) => treeCpuMs(apps[side].child.process.pid!) + (services ? services.children.reduce((sum, child) => sum + treeCpuMs(child.process.pid!), 0) : 0);
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
      const before = cpuOf(side);
      parts[side].push(await runLoad(target(side), shape));
      cpuMs[side].push(cpuOf(side) - before);
    }
  }
  const runs = { on: combineLoads(parts.on), off: combineLoads(parts.off) };
  const perRequest = (side: Side, r?: number) => (r === undefined ? (cpuMs[side].reduce((a, b) => a + b, 0) * 1000) / runs[side].total : (cpuMs[side][r]! * 1000) / parts[side][r]!.total);
  const result: PieceResult = {
    case: c,
    cpuUs: { on: perRequest('on'), off: perRequest('off') },
    rounds: parts.on.map((_, r) => perRequest('off', r) / perRequest('on', r)),
    rssStart: rssAtStart,
    rssAfter: { on: worstWorker(apps.on), off: worstWorker(apps.off) },
    requestsPerSecond: { on: runs.on.requestsPerSecond, off: runs.off.requestsPerSecond },
    problems: (['on', 'off'] as const).filter((side) => !isClean(runs[side])).map((side) => `${side}: ${describeFailures(runs[side])}`),
  };
  say(`plumbing ${c.piece}: CPU us/req with ${Math.round(result.cpuUs.on)}, without ${Math.round(result.cpuUs.off)} (${(result.cpuUs.off / result.cpuUs.on).toFixed(3)}x); worst worker RSS with ${Math.round(result.rssAfter.on)}, without ${Math.round(result.rssAfter.off)} MiB`);
  return result;
}

/** The largest HTTP worker's resident memory (the process itself when it runs one). */
function worstWorker(app: AppUnderTest): number {
  const rss = clusterRssMiB(app.child.process.pid!);
  return rss.workers.length ? Math.max(...rss.workers) : rss.primary;
}

/** The four subgraph services the distributed gateways share. */
interface Services {
  children: Child[];
  urls: Record<string, string>;
  secret: string;
}

async function startServices(ctx: BenchContext): Promise<Services> {
  const secret = randomBytes(24).toString('hex');
  const urls: Record<string, string> = {};
  const children: Child[] = [];
  for (const name of SUBGRAPH_NAMES) {
    const port = await freePort();
    const env = { DATABASE_URL: ctx.databaseUrl, INTERNAL_SECRET: secret, LOG_LEVEL: 'warn', NODE_ENV: 'production', DB_POOL_MAX: '5', WEBHOOK_DISPATCHER: 'off', PORT: String(port), HOST: '127.0.0.1' };
    const child = startChild(`${name} subgraph`, path.join(__dirname, '..', 'subgraphs', name, 'main.js'), env, SERVER_NODE_FLAGS);
    ctx.teardown.add(`${name} subgraph service`, () => child.stop());
    urls[`SUBGRAPH_${name.toUpperCase()}_URL`] = `http://127.0.0.1:${port}`;
    await waitForUrl(child, `http://127.0.0.1:${port}/healthz`);
    children.push(child);
  }
  return { children, urls, secret };
}

function startGateway(ctx: BenchContext, services: Services, plumbing: string): Promise<AppUnderTest> {
  return startApp(ctx.databaseUrl, ctx.app.workers, { MODE: 'distributed', INTERNAL_SECRET: services.secret, DB_POOL_MAX: '2', WEBHOOK_DISPATCHER: 'off', SPEED_PLUMBING: plumbing, ...services.urls });
}
