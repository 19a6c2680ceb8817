import { isDeepStrictEqual } from 'node:util';
import { buildAccessReport, restrictedOverFull, type AccessLoad, type AccessResult, type KeyKind } from './access-report';
import { benchSetting, type BenchContext } from './lib/context';
import { combineLoads, describeFailures, isClean, runLoad, type LoadSummary, type LoadTarget } from './lib/load';
import { describeMachine } from './lib/machine';
import { describeProcesses, treeCpuMs } from './lib/process-tree';
import { say } from './lib/progress';
import { createTenant, issueRestrictedKey, type BenchTenant } from './lib/tenant';

const PUBLIC_TENANT = '{ publicTenant { id name } }';

/** The loads, each needing the one scope the restricted key holds (docs/access.md's tables). */
const LOADS: AccessLoad[] = [
  { name: 'rest', request: 'GET /tenant/public', scope: 'tenant:read' },
  { name: 'graphql', request: `POST /graphql ${PUBLIC_TENANT}`, scope: 'tenant:read' },
];

/** Seconds of each load and key per round: autocannon runs whole seconds. */
const ROUND_SECONDS = 2;

const KEYS: readonly KeyKind[] = ['full', 'restricted'];

/**
 * Issue 33: what the scope check costs on the hot path. One tenant's full key and a restricted
 * key holding exactly `tenant:read` send the same loads to the same app, in alternating rounds
 * (full, restricted, restricted, full, ...), so what drifts during the run falls on both alike;
 * server CPU per request is compared as a ratio, restricted / full.
 */
export async function benchAccess(ctx: BenchContext): Promise<{ valid: boolean; markdown: string }> {
  const rounds = benchSetting(ctx, 'BENCH_ACCESS_ROUNDS', 6, 1);
  const roundSeconds = ctx.smoke ? 1 : ROUND_SECONDS;
  const full = await createTenant(ctx.app.url, ctx.app.operatorToken, 'Access Bench Clinic');
  const restricted = await issueRestrictedKey(ctx.app.url, ctx.app.operatorToken, full, ['tenant:read'], 'access bench (tenant:read)');
  say(`access: tenant ${full.tenantId}, a full and a restricted (tenant:read) key`);
  const keys: Record<KeyKind, BenchTenant> = { full, restricted };
  await assertKeysDiffer(ctx.app.url, keys);

  const targets = Object.fromEntries(LOADS.map((load) => [load.name, { full: target(ctx.app.url, load, 'full', full), restricted: target(ctx.app.url, load, 'restricted', restricted) }])) as Record<AccessLoad['name'], Record<KeyKind, LoadTarget>>;
  for (const load of LOADS) await assertSameAnswer(targets[load.name]);
  say('access: both keys get the same answers');

  // Warm every load with each key before measuring any: they share the gateway's code and JIT.
  if (ctx.warmupSeconds > 0) for (const load of LOADS) for (const key of KEYS) await runLoad(targets[load.name][key], { ...ctx.shape, durationSeconds: ctx.warmupSeconds });
  const shape = { ...ctx.shape, durationSeconds: roundSeconds };
  const pid = ctx.app.child.process.pid!;
  const parts = Object.fromEntries(LOADS.map((load) => [load.name, { full: [] as LoadSummary[], restricted: [] as LoadSummary[] }]));
  const cpuMs = Object.fromEntries(LOADS.map((load) => [load.name, { full: [] as number[], restricted: [] as number[] }]));
  for (let round = 0; round < rounds; round++) {
    for (const load of LOADS) {
      for (const key of round % 2 === 0 ? KEYS : [...KEYS].reverse()) {
        const before = treeCpuMs(pid);
        parts[load.name][key].push(await runLoad(targets[load.name][key], shape));
        cpuMs[load.name][key].push(treeCpuMs(pid) - before);
      }
    }
  }

  const results = LOADS.map((load): AccessResult => {
    const runs = { full: combineLoads(parts[load.name].full), restricted: combineLoads(parts[load.name].restricted) };
    const total = (values: number[]) => values.reduce((sum, value) => sum + value, 0);
    const perRequest = (key: KeyKind, r?: number) => (r === undefined ? (total(cpuMs[load.name][key]) * 1000) / runs[key].total : (cpuMs[load.name][key][r]! * 1000) / parts[load.name][key][r]!.total);
    const result: AccessResult = {
      load,
      cpuUs: { full: perRequest('full'), restricted: perRequest('restricted') },
      rounds: parts[load.name].full.map((_, r) => perRequest('restricted', r) / perRequest('full', r)),
      requestsPerSecond: { full: runs.full.requestsPerSecond, restricted: runs.restricted.requestsPerSecond },
      p99Ms: { full: runs.full.p99Ms, restricted: runs.restricted.p99Ms },
      problems: KEYS.filter((key) => !isClean(runs[key])).map((key) => `${key}: ${describeFailures(runs[key])}`),
    };
    say(`access ${load.name}: CPU us/req full ${Math.round(result.cpuUs.full)}, restricted ${Math.round(result.cpuUs.restricted)} (${restrictedOverFull(result).toFixed(3)}x)`);
    return result;
  });
  const report = buildAccessReport(results, {
    date: new Date(),
    machine: describeMachine(),
    mode: `all-in-one (${describeProcesses(ctx.app.workers)}; gateway and subgraphs in-process), NODE_ENV=production, LOG_LEVEL=warn, \`inflight-dedup\` ${ctx.app.dedup ? 'on' : 'off'}`,
    database: ctx.databaseLabel,
    rounds,
    roundSeconds,
    connections: ctx.shape.connections,
    warmupSeconds: ctx.warmupSeconds,
  });
  ctx.record('access', report.markdown);
  return report;
}

/** The request of one load, authenticated with one key. */
function target(baseUrl: string, load: AccessLoad, kind: KeyKind, key: BenchTenant): LoadTarget {
  const name = `${load.name} (${kind})`;
  return load.name === 'rest'
    ? { name, url: `${baseUrl}/tenant/public`, headers: key.headers }
    : { name, url: `${baseUrl}/graphql`, method: 'POST', headers: { ...key.headers, 'content-type': 'application/json' }, body: JSON.stringify({ query: PUBLIC_TENANT }) };
}

/** One request with each key: comparing different answers (or a refusal) would measure something else. */
async function assertSameAnswer(targets: Record<KeyKind, LoadTarget>): Promise<void> {
  const answers: Partial<Record<KeyKind, unknown>> = {};
  for (const key of KEYS) {
    const t = targets[key];
    const res = await fetch(t.url, { method: t.method ?? 'GET', headers: t.headers, body: t.body });
    const text = await res.text();
    if (!res.ok) throw new Error(`${t.name} answered ${res.status} before the load started: ${text}`);
    answers[key] = JSON.parse(text);
  }
  if (!isDeepStrictEqual(answers.full, answers.restricted)) throw new Error(`the two keys get different answers: ${JSON.stringify(answers)}`);
}

/**
 * The restricted key must really be restricted (a route needing another scope refuses it) and the
 * full key not: otherwise the benchmark would compare the check's fast path with itself.
 */
async function assertKeysDiffer(baseUrl: string, keys: Record<KeyKind, BenchTenant>): Promise<void> {
  const status = async (key: KeyKind) => {
    const res = await fetch(`${baseUrl}/tenant/webhook-config`, { headers: keys[key].headers });
    await res.arrayBuffer();
    return res.status;
  };
  const seen = { full: await status('full'), restricted: await status('restricted') };
  if (seen.full !== 200 || seen.restricted !== 403) throw new Error(`GET /tenant/webhook-config (webhooks:manage) should answer the full key 200 and the restricted key 403, got ${JSON.stringify(seen)}`);
}
