import { isDeepStrictEqual } from 'node:util';
import type { BenchContext } from './lib/context';
import { startFloor } from './lib/floor';
import { combineLoads, describeFailures, isClean, runLoad, type LoadShape, type LoadSummary, type LoadTarget } from './lib/load';
import { describeMachine } from './lib/machine';
import { clusterRssMiB, describeProcesses, treeCpuMs } from './lib/process-tree';
import { say } from './lib/progress';
import { createTenant } from './lib/tenant';
import { buildReport, type CpuPerRequest, type TenantPublicReport } from './tenant-public-report';

const QUERY = 'query PublicTenant { publicTenant { id name timezone locale currency website phone primaryColor logoUrl receiptLogoUrl } }';

/** Seconds of each target per round: autocannon runs whole seconds (a 2.5 s run took 3). */
const ROUND_SECONDS = 2;

/**
 * Issue 2's performance check: `GET /tenant/public` through REST, the same query through
 * `/graphql`, and the floor, measured back to back in one run and recorded in RESULTS.md.
 */
export async function benchTenantPublic(ctx: BenchContext): Promise<TenantPublicReport> {
  const rssAtStart = clusterRssMiB(ctx.app.child.process.pid!);
  const tenant = await createTenant(ctx.app.url, ctx.app.operatorToken, 'Bench Clinic');
  say(`created tenant ${tenant.tenantId}`);
  const floor = await startFloor(ctx.databaseUrl, ctx.app.workers);
  ctx.teardown.add('floor server', () => floor.child.stop());
  say(`floor server ready at ${floor.url}`);

  const targets: Record<'rest' | 'graphql' | 'floor', LoadTarget> = {
    rest: { name: 'rest', url: `${ctx.app.url}/tenant/public`, headers: tenant.headers },
    graphql: {
      name: 'graphql',
      url: `${ctx.app.url}/graphql`,
      method: 'POST',
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ query: QUERY }),
    },
    floor: { name: 'floor', url: `${floor.url}/tenant/public`, headers: { TENANT: tenant.tenantId } },
  };
  await assertSameAnswer(targets);
  say('all three targets return the same tenant');

  // Warm all before measuring any: REST and GraphQL share the gateway's code, so a target measured
  // first would otherwise run on a colder JIT than the one after it.
  for (const key of ['rest', 'graphql', 'floor'] as const) await warmUp(targets[key], ctx);
  // Then rounds of ROUND_SECONDS per target, the order reversed every other round (R F G, G F R, ...):
  // the floor sits next to REST in every round, so what drifts during a run (the JIT, heap growth,
  // a neighbour on a shared VM) falls on both alike; one floor block in the middle of the run once
  // put its CPU per request anywhere from 106 to 180 us on one VM (bench/RESULTS.md).
  const rounds = Math.max(1, Math.round(ctx.shape.durationSeconds / ROUND_SECONDS));
  const round = { ...ctx.shape, durationSeconds: Math.max(1, Math.round(ctx.shape.durationSeconds / rounds)) };
  const order = ['rest', 'floor', 'graphql'] as const;
  // One unmeasured second of each, in the rounds' order, so the first measured round starts as the
  // others do: right after the block warm-ups the app had sat idle through the floor's, and its
  // first REST round cost ~20% more than the rest (0.40-0.46x against ~0.50x, bench/RESULTS.md).
  if (ctx.warmupSeconds > 0) for (const key of order) await runLoad(targets[key], { ...ctx.shape, durationSeconds: 1 });
  const parts: Record<keyof typeof targets, LoadSummary[]> = { rest: [], graphql: [], floor: [] };
  const cpuMs: Record<keyof typeof targets, number[]> = { rest: [], graphql: [], floor: [] };
  const serverPid = { rest: ctx.app.child.process.pid!, graphql: ctx.app.child.process.pid!, floor: floor.child.process.pid! };
  for (let r = 0; r < rounds; r++) {
    for (const key of r % 2 === 0 ? order : [...order].reverse()) {
      const before = treeCpuMs(serverPid[key]);
      parts[key].push(await measure(targets[key], round));
      cpuMs[key].push(treeCpuMs(serverPid[key]) - before);
    }
  }
  const rssAfterRuns = clusterRssMiB(ctx.app.child.process.pid!);
  const runs = { rest: combineLoads(parts.rest), graphql: combineLoads(parts.graphql), floor: combineLoads(parts.floor) };
  const total = (values: number[]) => values.reduce((sum, value) => sum + value, 0);
  const cpu: CpuPerRequest = { rest: (total(cpuMs.rest) * 1000) / runs.rest.total, graphql: (total(cpuMs.graphql) * 1000) / runs.graphql.total, floor: (total(cpuMs.floor) * 1000) / runs.floor.total };
  // Each round's own floor / REST ratio: their spread shows how much of the verdict is the machine.
  const floorOverRestByRound = parts.rest.map((rest, r) => (cpuMs.floor[r]! / parts.floor[r]!.total) / (cpuMs.rest[r]! / rest.total));
  for (const key of ['rest', 'graphql', 'floor'] as const) {
    say(`${key}: ${Math.round(runs[key].requestsPerSecond)} req/s, p99 ${runs[key].p99Ms} ms, server CPU ${Math.round(cpu[key])} us per request`);
  }

  say(`resident memory after the runs: primary ${Math.round(rssAfterRuns.primary)} MiB, workers ${rssAfterRuns.workers.map(Math.round).join(', ')} MiB`);
  const report = buildReport(runs, cpu, { atStart: rssAtStart, afterRuns: rssAfterRuns }, floorOverRestByRound, {
    date: new Date(),
    machine: describeMachine(),
    mode: `all-in-one (${describeProcesses(ctx.app.workers)}; gateway and subgraphs in-process), NODE_ENV=production, LOG_LEVEL=warn, \`inflight-dedup\` ${ctx.app.dedup ? 'on' : 'off'}`,
    database: ctx.databaseLabel,
    shape: ctx.shape,
    warmupSeconds: ctx.warmupSeconds,
    roundSeconds: round.durationSeconds,
  });
  ctx.record('tenant-public', report.markdown);
  return report;
}

/** Loads a target briefly and throws the numbers away: JIT, caches and pools warm up first. */
async function warmUp(target: LoadTarget, ctx: BenchContext): Promise<void> {
  if (ctx.warmupSeconds === 0) return;
  say(`${target.name}: warming up ${ctx.warmupSeconds} s`);
  const warm = await runLoad(target, { ...ctx.shape, durationSeconds: ctx.warmupSeconds });
  if (!isClean(warm)) say(`${target.name}: warm-up was not clean: ${describeFailures(warm)}`);
}

/** Measures one target, saying how it went. */
async function measure(target: LoadTarget, shape: LoadShape): Promise<LoadSummary> {
  say(`${target.name}: measuring ${shape.durationSeconds} s with ${shape.connections} connections`);
  const run = await runLoad(target, shape);
  const failures = isClean(run) ? '' : `; ${describeFailures(run)}`;
  say(`${target.name}: ${Math.round(run.requestsPerSecond)} req/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, ${run.total} requests${failures}`);
  return run;
}

/** One request to each target: a benchmark comparing different answers (or errors) would mislead. */
async function assertSameAnswer(targets: Record<'rest' | 'graphql' | 'floor', LoadTarget>): Promise<void> {
  const answers: Record<string, unknown> = {};
  for (const target of Object.values(targets)) {
    const res = await fetch(target.url, { method: target.method ?? 'GET', headers: target.headers, body: target.body });
    const text = await res.text();
    if (!res.ok) throw new Error(`${target.name} answered ${res.status} before the load started: ${text}`);
    const body = JSON.parse(text);
    answers[target.name] = target.name === 'graphql' ? body?.data?.publicTenant : body;
  }
  if (!isDeepStrictEqual(answers.rest, answers.floor) || !isDeepStrictEqual(answers.graphql, answers.floor)) {
    throw new Error(`the targets disagree on the tenant: ${JSON.stringify(answers)}`);
  }
}
