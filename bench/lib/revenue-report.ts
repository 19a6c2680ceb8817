import type { PlanSummary } from './explain';
import { formatMachine, type Machine } from './machine';
import type { SeedTimings } from './revenue-seed';
import type { RevenueTarget } from './revenue-targets';
import type { WriteRun } from './revenue-writes';
import { markdownTable } from './table';
import type { Timings } from './timing';

/** One side of a target: sequential and (unless skipped) concurrent latencies, and how many requests were refused with a 422. */
export interface Measured {
  sequential: Timings;
  concurrent: Timings | null;
  refused: number;
}

/** One target's measurements. */
export interface RevenueRun {
  target: Omit<RevenueTarget, 'app' | 'floor'>;
  app: Measured;
  floor: Measured;
  /** EXPLAIN (ANALYZE, BUFFERS) of the app's statements, with what each read. */
  plans: { via: string; plan: PlanSummary }[];
  agrees: boolean;
}

type Shape = { sequential: number; workers: number; each: number };

/** The run's circumstances, for the record. */
export interface RevenueRunInfo {
  date: Date;
  machine: Machine;
  database: string;
  /** How the app runs (bench/lib/process-tree.ts describeProcesses). */
  processes: string;
  lines: number;
  otherLines: number;
  year: { start: string; end: string };
  timezone: string;
  shapes: { app: Shape; floor: Shape; lines: Shape };
  statementTimeoutMs: number;
  /** Whether the app shared identical fetches in flight (SPEED_PLUMBING `inflight-dedup`): concurrent identical requests would then cost one query. */
  dedup: boolean;
  seed: SeedTimings;
  rollups: { name: string; rows: number; measured: number }[];
}

const ms = (n: number) => n.toFixed(1);
const x = (n: number) => `${n.toFixed(2)}x`;
const thousands = (n: number) => n.toLocaleString('en-US');
const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
/** Seeding the lines and their rollups (load, indexes, vacuum, rollups) must take under 5 minutes at 10M lines (issue 21). */
const SEED_LIMIT_S = 300;

function verdicts(runs: RevenueRun[], writes: WriteRun, info: RevenueRunInfo): { table: string; missed: string[] } {
  const rows: string[][] = [];
  const missed: string[] = [];
  const add = (target: string, wanted: string, measured: string, ok: boolean) => {
    rows.push([target, wanted, measured, verdict(ok)]);
    if (!ok) missed.push(target);
  };
  for (const r of runs.filter((run) => run.target.kind !== 'lines')) {
    const total = r.app.sequential.samples.length + (r.app.concurrent?.samples.length ?? 0);
    add(`${r.target.name}: no 422 at ${info.shapes.app.workers} concurrent clients`, '0 refused', `${r.app.refused} of ${total}`, r.app.refused === 0);
  }
  for (const r of runs.filter((run) => run.target.kind === 'rollup')) {
    const seq = r.floor.sequential.p50 / r.app.sequential.p50;
    add(`${r.target.name}: p50 vs the raw-line floor, sequential`, '>= 10x faster', x(seq), seq >= 10);
    if (r.app.concurrent && r.floor.concurrent) {
      const conc = r.floor.concurrent.p50 / r.app.concurrent.p50;
      add(`${r.target.name}: p50 vs the raw-line floor, ${info.shapes.app.workers} concurrent`, '>= 10x faster', x(conc), conc >= 10);
    }
  }
  for (const r of runs.filter((run) => run.target.kind === 'lines')) {
    const ratio = r.app.sequential.p50 / r.floor.sequential.p50;
    add(`${r.target.name}: p50 within 1.5x of its floor`, '<= 1.50x', x(ratio), ratio <= 1.5);
  }
  const write = writes.app.on.p50 / writes.app.off.p50;
  add('writing a revenue line (recordChargeItem): p50 with rollups / without', '<= 1.50x', x(write), write <= 1.5);
  const seeded = info.seed.total;
  add(`seeding ${thousands(info.lines + 9 * info.otherLines)} lines and their rollups`, `< ${SEED_LIMIT_S} s`, `${seeded.toFixed(0)} s`, seeded < SEED_LIMIT_S);
  return { table: markdownTable(['target', 'wanted', 'measured', 'verdict'], rows), missed };
}

/** The Markdown section of bench/RESULTS.md. */
export function buildRevenueReport(runs: RevenueRun[], writes: WriteRun, info: RevenueRunInfo): string {
  const conc = (m: Measured) => (m.concurrent ? ms(m.concurrent.p50) : '—');
  const timing = markdownTable(
    ['target', 'app reads', 'app p50', 'app p95', 'floor p50', 'floor / app p50', 'concurrent app p50', 'concurrent floor p50', 'concurrent floor / app', '422s'],
    runs.map((r) => [
      r.target.name, [...new Set(r.plans.map((p) => p.via))].join(' + '), ms(r.app.sequential.p50), ms(r.app.sequential.p95), ms(r.floor.sequential.p50),
      x(r.floor.sequential.p50 / r.app.sequential.p50), conc(r.app), conc(r.floor),
      r.app.concurrent && r.floor.concurrent ? x(r.floor.concurrent.p50 / r.app.concurrent.p50) : '—', String(r.app.refused),
    ]),
    [false, false, true, true, true, true, true, true, true, true],
  );
  const { table, missed } = verdicts(runs, writes, info);
  const writeTable = markdownTable(
    ['write', 'p50 with rollups', 'p50 without', 'ratio', 'p95 with', 'p95 without'],
    [
      ['recordChargeItem over GraphQL (HTTP, app)', ms(writes.app.on.p50), ms(writes.app.off.p50), x(writes.app.on.p50 / writes.app.off.p50), ms(writes.app.on.p95), ms(writes.app.off.p95)],
      ['one-line INSERT through pg (statement alone)', ms(writes.sql.on.p50), ms(writes.sql.off.p50), x(writes.sql.on.p50 / writes.sql.off.p50), ms(writes.sql.on.p95), ms(writes.sql.off.p95)],
    ],
    [false, true, true, true, true, true],
  );
  const rollupTable = markdownTable(
    ['rollup (billing.revenue_hourly_…)', 'rows, all tenants', 'rows, measured tenant', 'measured tenant lines per row'],
    info.rollups.map((r) => [r.name, thousands(r.rows), thousands(r.measured), (info.lines / Math.max(1, r.measured)).toFixed(0)]),
    [false, true, true, true],
  );
  const details = runs.flatMap((r) => r.plans.map((p, i) => `<details><summary>${r.target.name}${r.plans.length > 1 ? ` (statement ${i + 1}, ${p.via})` : ''}: EXPLAIN (ANALYZE, BUFFERS) of the app's statement</summary>\n\n\`\`\`\n${p.plan.text}\n\`\`\`\n</details>`));
  const s = info.seed;
  const { app, floor, lines } = info.shapes;
  return [
    `## Product sales revenue breakdown and execute-query on rollups: app vs the raw-line floor (${thousands(info.lines)} lines)`,
    '',
    `- Date: ${info.date.toISOString()}`,
    `- Machine: ${formatMachine(info.machine)}`,
    `- Mode: all-in-one (${info.processes}; gateway, REST bridge and subgraphs in-process), NODE_ENV=production, LOG_LEVEL=warn; database: ${info.database}`,
    `- Data: ${thousands(info.lines)} revenue lines for the measured tenant (95% charge items, 5% sold packages, two years), ${thousands(info.otherLines)} for each of nine other tenants (bench/lib/revenue-seed.ts): loaded in ${s.load.toFixed(0)} s with the secondary indexes and the rollup trigger set aside${s.rollupsSummed ? ' (the seed summing the rollups as it drew the lines)' : ''}, indexes rebuilt in ${s.index.toFixed(0)} s, \`VACUUM ANALYZE\` ${s.vacuum.toFixed(0)} s, rollups ${s.rollupsSummed ? 'written (key indexes rebuilt, `VACUUM ANALYZE`)' : 'rebuilt by `billing.rebuild_revenue_rollups`'} in ${s.rollups.toFixed(0)} s (${s.total.toFixed(0)} s in all)`,
    `- Range: ${info.year.start} to ${info.year.end} in ${info.timezone} (one year, about half the tenant's lines); the targets only lines answer read the last 90 days of it`,
    `- Requests: each side warmed up 3 times; app: ${app.sequential} sequential, then ${app.workers} concurrent loops of ${app.each}; floor: ${floor.sequential} sequential, then ${floor.workers} concurrent loops of ${floor.each}; targets only lines answer: ${lines.sequential} sequential each side, app and floor in turn. Times in ms, measured by the benchmark process on the same machine`,
    `- \`app\` = the REST route over HTTP (API key auth, rate limit, REST bridge, Apollo Gateway, analytics subgraph, one read-only transaction with \`statement_timeout\` ${info.statementTimeoutMs} ms, \`inflight-dedup\` ${info.dedup ? 'on: concurrent identical requests may share one query' : 'off: each request runs its own queries'}), reading the rollup named under "app reads" where one answers; \`floor\` = the same figures computed from the lines (\`billing.revenue_line\`, the statements of the path without rollups) sent by \`pg\` from a pool in the benchmark process (no HTTP, no transaction). A 422 is timed and counted, not retried`,
    `- Targets: ${runs.map((r) => `\`${r.target.name}\` = ${r.target.request}`).join('; ')}`,
    '',
    timing,
    '',
    table,
    '',
    missed.length ? `Missed: ${missed.join('; ')}. Why it misses: "Notes on the revenue section" just below it, kept by hand outside the generated text.` : 'Every target passed in this run.',
    '',
    `Writes (${writes.rounds} alternating rounds each way, sequential; "without" disables billing's \`revenue_rollups_insert\` triggers for the round):`,
    '',
    writeTable,
    '',
    'Rollup sizes (`pg_class.reltuples` after `VACUUM ANALYZE`; the measured tenant counted):',
    '',
    rollupTable,
    '',
    ...details,
    '',
    runs.every((r) => r.agrees) ? 'Valid run: every target answered 200 before timing and the app and the floor agreed on the figures.' : 'INVALID run: some target disagreed with its floor (see the log).',
  ].join('\n');
}
