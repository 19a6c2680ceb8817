import { describeFailures, isClean, type LoadShape, type LoadSummary } from './lib/load';
import { formatMachine, type Machine } from './lib/machine';
import type { ClusterRss } from './lib/process-tree';
import { markdownTable } from './lib/table';

/**
 * Issue 21's targets for the REST route: REST at least GraphQL's req/s, server CPU per request
 * within 2x of the floor's, a worker's resident memory after the runs. (Issue 2's req/s against the
 * floor and its p99 are shown, not judged: issue 21 withdrew them as measures of the neighbours.)
 */
export const TARGETS = { restOverGraphql: 1, floorOverRestCpu: 0.5, workerRssMiB: 250 };

/** The three measured runs of the tenant-public benchmark. */
export interface TenantPublicRuns {
  rest: LoadSummary;
  graphql: LoadSummary;
  floor: LoadSummary;
}

/** Server CPU time (user + system, all its processes) per answered request in microseconds, per target; NaN where /proc is missing. */
export type CpuPerRequest = Record<keyof TenantPublicRuns, number>;

/** The app's resident memory once ready (before any request) and after the measured runs. */
export interface MemoryReading {
  atStart: ClusterRss;
  afterRuns: ClusterRss;
}

/** The processes that serve HTTP: the workers under a primary, or the single process itself. */
const httpProcesses = (rss: ClusterRss): number[] => (rss.workers.length ? rss.workers : [rss.primary]);

/** Where and how the runs were made, for the record. */
export interface RunConditions {
  date: Date;
  machine: Machine;
  mode: string;
  database: string;
  shape: LoadShape;
  warmupSeconds: number;
  /** Seconds of each target's run within a round. */
  roundSeconds: number;
}

/** One target: what was wanted, what was measured, and whether it was met. */
export interface Verdict {
  name: string;
  wanted: string;
  measured: string;
  pass: boolean;
}

/** The judged result: valid only when every request of every run was answered 2xx. */
export interface TenantPublicReport {
  valid: boolean;
  problems: string[];
  ratios: { restOverGraphql: number; restOverFloor: number };
  verdicts: Verdict[];
  /** The Markdown body of the RESULTS.md section; also what the console shows. */
  markdown: string;
}

const rps = (n: number) => Math.round(n).toLocaleString('en-US');
// autocannon records latency in whole milliseconds; keep decimals only if a future version has them.
const ms = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
const times = (n: number) => `${n.toFixed(2)}x`;
const mib = (n: number) => String(Math.round(n));

/** Computes the ratios and verdicts and writes them up. */
export function buildReport(runs: TenantPublicRuns, cpu: CpuPerRequest, memory: MemoryReading, floorOverRestByRound: number[], conditions: RunConditions): TenantPublicReport {
  const all = [runs.rest, runs.graphql, runs.floor];
  const problems = all.filter((run) => !isClean(run)).map((run) => `${run.target}: ${describeFailures(run)}`);
  const valid = problems.length === 0;
  const ratios = {
    restOverGraphql: runs.rest.requestsPerSecond / runs.graphql.requestsPerSecond,
    restOverFloor: runs.rest.requestsPerSecond / runs.floor.requestsPerSecond,
  };
  const maxWorkerRss = Math.max(...httpProcesses(memory.afterRuns));
  const verdicts: Verdict[] = [
    { name: 'REST >= GraphQL', wanted: `>= ${times(TARGETS.restOverGraphql)}`, measured: times(ratios.restOverGraphql), pass: ratios.restOverGraphql >= TARGETS.restOverGraphql },
    { name: 'floor / REST server CPU', wanted: `>= ${times(TARGETS.floorOverRestCpu)}`, measured: times(cpu.floor / cpu.rest), pass: cpu.floor / cpu.rest >= TARGETS.floorOverRestCpu },
    { name: 'RSS per HTTP worker', wanted: `<= ${TARGETS.workerRssMiB} MiB`, measured: `${mib(maxWorkerRss)} MiB`, pass: maxWorkerRss <= TARGETS.workerRssMiB },
  ];

  const table = markdownTable(
    ['target', 'req/s (mean)', 'p50 ms', 'p99 ms', 'server CPU us/req', 'requests', 'seconds', 'non-2xx', 'errors'],
    (['rest', 'graphql', 'floor'] as const).map((key) => {
      const run = runs[key];
      return [run.target, rps(run.requestsPerSecond), ms(run.p50Ms), ms(run.p99Ms), Number.isNaN(cpu[key]) ? 'n/a' : String(Math.round(cpu[key])), run.total.toLocaleString('en-US'), run.seconds.toFixed(1), String(run.non2xx), String(run.errors)];
    }),
    [false, true, true, true, true, true, true, true, true],
  );
  const memoryTable = markdownTable(
    ['process', 'RSS MiB at start', 'RSS MiB after the runs'],
    [
      ...(memory.afterRuns.workers.length ? [['primary', mib(memory.atStart.primary), mib(memory.afterRuns.primary)]] : []),
      ...httpProcesses(memory.afterRuns).map((after, i) => [memory.afterRuns.workers.length ? `HTTP worker ${i + 1}` : 'the process', mib(httpProcesses(memory.atStart)[i] ?? Number.NaN), mib(after)]),
    ],
    [false, true, true],
  );
  // An invalid run still shows its verdicts, marked, since they hint at where the errors come from.
  const verdictTable = markdownTable(
    ['target', 'wanted', 'measured', 'verdict'],
    verdicts.map((v) => [v.name, v.wanted, v.measured, valid ? (v.pass ? 'PASS' : 'MISS') : `${v.pass ? 'PASS' : 'MISS'} (invalid run)`]),
  );
  const { shape } = conditions;
  const markdown = [
    '## GET /tenant/public: REST vs GraphQL vs floor',
    '',
    `- Date: ${conditions.date.toISOString()}`,
    `- Machine: ${formatMachine(conditions.machine)}`,
    `- Mode: ${conditions.mode}; database: ${conditions.database}`,
    `- Load: autocannon, ${shape.connections} connections, ${shape.durationSeconds} s per target in all after a ${conditions.warmupSeconds} s warm-up of each and one unmeasured second of each in the rounds' order; in ${floorOverRestByRound.length} rounds of a ${conditions.roundSeconds} s run each (REST, floor, GraphQL; the order reversed every other round), req/s weighted by time, p50 by requests, p99 the highest round's; load generator on the same machine`,
    '- Targets: `rest` = `GET /tenant/public` (API key auth, REST bridge, gateway, tenant subgraph, MikroORM); `graphql` = `POST /graphql` with the same query; `floor` = bench/floor-server.ts (express 5 + pg, the same prepared statement, node flags and number of HTTP worker processes as the app, no auth)',
    '',
    table,
    '',
    `REST / GraphQL: **${times(ratios.restOverGraphql)}**; REST / floor: **${times(ratios.restOverFloor)}**`,
    '',
    // Throughput on a shared VM moves with its neighbours; CPU time per request much less, so it shows whether a change helped.
    `Server CPU per request (the app's processes, or the floor's; PostgreSQL and the load generator not included): floor / REST **${times(cpu.floor / cpu.rest)}**, the throughput ratio REST would reach if both were CPU-bound on one core each. Round by round: ${floorOverRestByRound.map(times).join(', ')}.`,
    '',
    // A container is sized by its largest process; worker 1 also runs the background work (migrations, webhook delivery).
    'Resident memory of the app\'s processes (VmRSS) once ready and after the warm-ups and measured runs:',
    '',
    memoryTable,
    '',
    verdictTable,
    '',
    valid ? 'Valid run: every response was 2xx.' : `**INVALID RUN**: not every response was 2xx, so these numbers do not measure the endpoint. ${problems.join('; ')}.`,
  ].join('\n');
  return { valid, problems, ratios, verdicts, markdown };
}
