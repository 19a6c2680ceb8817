import { isDeepStrictEqual } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { auditedOverUnaudited, buildAccessReport, recordsPerRequest, restrictedOverFull, type AccessLoad, type AccessResult, type AuditLoadKind, type AuditResult, type KeyKind } from './access-report';
import { AUDIT_QUERIES, DIRECTORY_ROWS, assertFullPages, auditTarget, countReadRecords, seedDirectory } from './lib/access-audit';
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
const AUDIT_KINDS: readonly AuditLoadKind[] = ['audited', 'unaudited'];

/** How long after an audit load its CPU is read: the read log writes its last records within about 50 ms (docs/audit.md), and they are the load's. */
const SETTLE_MS = 250;
/** How long after the loads the trail is counted: records are written within about 50 ms, a failed batch retried after 250 ms. */
const FLUSH_WAIT_MS = 1000;

/**
 * Issue 33: what the scope check and the audit trail cost on the hot path, side by side on the
 * same app in alternating rounds (A, B, B, A, ...), so what drifts during the run falls on both
 * alike; server CPU per request is compared as ratios. The scope check: one tenant's full key
 * against a restricted key holding exactly `tenant:read`. The audit trail: a page of patients (one
 * record per request) against a page of locations, a read of the same shape that is not PHI,
 * since recording cannot be turned off (bench/lib/access-audit.ts); the records the trail gained
 * are counted to show each audited request left exactly one.
 */
export async function benchAccess(ctx: BenchContext): Promise<{ valid: boolean; markdown: string }> {
  const rounds = benchSetting(ctx, 'BENCH_ACCESS_ROUNDS', 6, 1);
  const roundSeconds = ctx.smoke ? 1 : ROUND_SECONDS;
  const full = await createTenant(ctx.app.url, ctx.app.operatorToken, 'Access Bench Clinic');
  const restricted = await issueRestrictedKey(ctx.app.url, ctx.app.operatorToken, full, ['tenant:read'], 'access bench (tenant:read)');
  say(`access: tenant ${full.tenantId}, a full and a restricted (tenant:read) key`);
  const keys: Record<KeyKind, BenchTenant> = { full, restricted };
  await assertKeysDiffer(ctx.app.url, keys);
  await seedDirectory(ctx.app.url, full);
  await assertFullPages(ctx.app.url, full);
  say(`access: ${DIRECTORY_ROWS} patients and ${DIRECTORY_ROWS} locations created`);

  const targets = Object.fromEntries(LOADS.map((load) => [load.name, { full: target(ctx.app.url, load, 'full', full), restricted: target(ctx.app.url, load, 'restricted', restricted) }])) as Record<AccessLoad['name'], Record<KeyKind, LoadTarget>>;
  for (const load of LOADS) await assertSameAnswer(targets[load.name]);
  say('access: both keys get the same answers');
  const auditTargets = { audited: auditTarget(ctx.app.url, 'audited', full), unaudited: auditTarget(ctx.app.url, 'unaudited', full) };

  // Warm every load with each key before measuring any: they share the gateway's code and JIT.
  if (ctx.warmupSeconds > 0) {
    for (const load of LOADS) for (const key of KEYS) await runLoad(targets[load.name][key], { ...ctx.shape, durationSeconds: ctx.warmupSeconds });
    for (const kind of AUDIT_KINDS) await runLoad(auditTargets[kind], { ...ctx.shape, durationSeconds: ctx.warmupSeconds });
  }
  const shape = { ...ctx.shape, durationSeconds: roundSeconds };
  const pid = ctx.app.child.process.pid!;
  const parts = Object.fromEntries(LOADS.map((load) => [load.name, { full: [] as LoadSummary[], restricted: [] as LoadSummary[] }]));
  const cpuMs = Object.fromEntries(LOADS.map((load) => [load.name, { full: [] as number[], restricted: [] as number[] }]));
  const auditParts: Record<AuditLoadKind, LoadSummary[]> = { audited: [], unaudited: [] };
  const auditCpuMs: Record<AuditLoadKind, number[]> = { audited: [], unaudited: [] };
  // The warm-up's records are written by now; only the measured rounds' count.
  await sleep(FLUSH_WAIT_MS);
  const recordsBefore = await countReadRecords(ctx.databaseUrl, full.tenantId);
  for (let round = 0; round < rounds; round++) {
    for (const load of LOADS) {
      for (const key of round % 2 === 0 ? KEYS : [...KEYS].reverse()) {
        const before = treeCpuMs(pid);
        parts[load.name][key].push(await runLoad(targets[load.name][key], shape));
        cpuMs[load.name][key].push(treeCpuMs(pid) - before);
      }
    }
    for (const kind of round % 2 === 0 ? AUDIT_KINDS : [...AUDIT_KINDS].reverse()) {
      const before = treeCpuMs(pid);
      auditParts[kind].push(await runLoad(auditTargets[kind], shape));
      await sleep(SETTLE_MS);
      auditCpuMs[kind].push(treeCpuMs(pid) - before);
    }
  }
  await sleep(FLUSH_WAIT_MS);
  const written = (await countReadRecords(ctx.databaseUrl, full.tenantId)) - recordsBefore;

  const results = LOADS.map((load): AccessResult => {
    const { runs, cpuUs, rounds: ratios } = compare(parts[load.name], cpuMs[load.name], 'restricted', 'full');
    const result: AccessResult = {
      load,
      cpuUs,
      rounds: ratios,
      requestsPerSecond: { full: runs.full.requestsPerSecond, restricted: runs.restricted.requestsPerSecond },
      p99Ms: { full: runs.full.p99Ms, restricted: runs.restricted.p99Ms },
      problems: KEYS.filter((key) => !isClean(runs[key])).map((key) => `${key}: ${describeFailures(runs[key])}`),
    };
    say(`access ${load.name}: CPU us/req full ${Math.round(result.cpuUs.full)}, restricted ${Math.round(result.cpuUs.restricted)} (${restrictedOverFull(result).toFixed(3)}x)`);
    return result;
  });
  const measured = compare(auditParts, auditCpuMs, 'audited', 'unaudited');
  const audit: AuditResult = {
    requests: { audited: `POST /graphql ${AUDIT_QUERIES.audited.query}`, unaudited: `POST /graphql ${AUDIT_QUERIES.unaudited.query}` },
    cpuUs: measured.cpuUs,
    rounds: measured.rounds,
    requestsPerSecond: { audited: measured.runs.audited.requestsPerSecond, unaudited: measured.runs.unaudited.requestsPerSecond },
    p99Ms: { audited: measured.runs.audited.p99Ms, unaudited: measured.runs.unaudited.p99Ms },
    records: { written, answered: measured.runs.audited.total, sent: measured.runs.audited.sent },
    problems: AUDIT_KINDS.filter((kind) => !isClean(measured.runs[kind])).map((kind) => `${kind}: ${describeFailures(measured.runs[kind])}`),
  };
  say(`access audit: CPU us/req audited ${Math.round(audit.cpuUs.audited)}, unaudited ${Math.round(audit.cpuUs.unaudited)} (${auditedOverUnaudited(audit).toFixed(3)}x); ${written} records of reads for ${audit.records.answered} answered, ${audit.records.sent} sent (${recordsPerRequest(audit).toFixed(3)} per answered request)`);
  const report = buildAccessReport(results, audit, {
    date: new Date(),
    machine: describeMachine(),
    mode: `all-in-one (${describeProcesses(ctx.app.workers)}; gateway and subgraphs in-process), NODE_ENV=production, LOG_LEVEL=warn, \`inflight-dedup\` ${ctx.app.dedup ? 'on' : 'off'}`,
    database: ctx.databaseLabel,
    rounds,
    roundSeconds,
    connections: ctx.shape.connections,
    warmupSeconds: ctx.warmupSeconds,
    directoryRows: DIRECTORY_ROWS,
    settleMs: SETTLE_MS,
  });
  ctx.record('access', report.markdown);
  return report;
}

/** Two sides measured in rounds: each one's runs combined and CPU per request over all rounds, and `over` / `under` round by round. */
function compare<K extends string>(parts: Record<K, LoadSummary[]>, cpuMs: Record<K, number[]>, over: K, under: K) {
  const total = (values: number[]) => values.reduce((sum, value) => sum + value, 0);
  const runs = { [over]: combineLoads(parts[over]), [under]: combineLoads(parts[under]) } as Record<K, LoadSummary>;
  const perRequest = (side: K, r?: number) => (r === undefined ? (total(cpuMs[side]) * 1000) / runs[side].total : (cpuMs[side][r]! * 1000) / parts[side][r]!.total);
  return {
    runs,
    cpuUs: { [over]: perRequest(over), [under]: perRequest(under) } as Record<K, number>,
    rounds: parts[over].map((_, r) => perRequest(over, r) / perRequest(under, r)),
  };
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
