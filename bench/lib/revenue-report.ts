import type { PlanSummary } from './explain';
import { formatMachine, type Machine } from './machine';
import type { RevenueTarget } from './revenue-targets';
import { markdownTable } from './table';
import type { Timings } from './timing';

/** One target's measurements. */
export interface RevenueRun {
  target: Omit<RevenueTarget, 'app' | 'floor'>;
  app: { sequential: Timings; concurrent: Timings };
  floor: { sequential: Timings; concurrent: Timings };
  plans: { with: PlanSummary; without: PlanSummary }[];
  agrees: boolean;
}

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
  shape: { sequential: number; workers: number; each: number };
  statementTimeoutMs: number;
}

const ms = (n: number) => n.toFixed(1);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
const thousands = (n: number) => n.toLocaleString('en-US');

/** The Markdown section of bench/RESULTS.md. */
export function buildRevenueReport(runs: RevenueRun[], info: RevenueRunInfo): string {
  const timing = markdownTable(
    ['target', 'app p50', 'app p95', 'floor p50', 'floor p95', 'app/floor p50', 'concurrent app p50', 'concurrent floor p50', 'concurrent app/floor'],
    runs.map((r) => [
      r.target.name, ms(r.app.sequential.p50), ms(r.app.sequential.p95), ms(r.floor.sequential.p50), ms(r.floor.sequential.p95),
      ratio(r.app.sequential.p50, r.floor.sequential.p50), ms(r.app.concurrent.p50), ms(r.floor.concurrent.p50), ratio(r.app.concurrent.p50, r.floor.concurrent.p50),
    ]),
    [false, true, true, true, true, true, true, true, true],
  );
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  const targets = runs.map((r) => {
    const value = r.app.sequential.p50 / r.floor.sequential.p50;
    return [`${r.target.name}: p50 within 1.5x of the floor`, '<= 1.50x', `${value.toFixed(2)}x`, verdict(value <= 1.5)];
  });
  const summary = runs.find((r) => r.target.name === 'summary');
  if (summary) targets.push(['summary: p50 under 300 ms', '< 300 ms', `${ms(summary.app.sequential.p50)} ms`, verdict(summary.app.sequential.p50 < 300)]);
  const verdicts = markdownTable(['target', 'wanted', 'measured', 'verdict'], targets);
  const plans = markdownTable(
    ['target', 'statement', 'scans (with the covering indexes)', 'execution ms', 'scans without them', 'execution ms'],
    runs.flatMap((r) => r.plans.map((p, i) => [
      r.target.name, i === 0 ? 'main' : 'count', p.with.scans.join('; '), ms(p.with.executionMs), p.without.scans.join('; '), ms(p.without.executionMs),
    ])),
    [false, false, false, true, false, true],
  );
  const details = runs.flatMap((r) => r.plans.map((p, i) => `<details><summary>${r.target.name}${i ? ' (count)' : ''}: EXPLAIN (ANALYZE, BUFFERS)</summary>\n\n\`\`\`\n${p.with.text}\n\`\`\`\n</details>`));
  const lines = [
    `## Product sales revenue breakdown and execute-query: app vs floor (${thousands(info.lines)} lines)`,
    '',
    `- Date: ${info.date.toISOString()}`,
    `- Machine: ${formatMachine(info.machine)}`,
    `- Mode: all-in-one (${info.processes}; gateway, REST bridge and subgraphs in-process), NODE_ENV=production, LOG_LEVEL=warn; database: ${info.database}`,
    `- Data: ${thousands(info.lines)} revenue lines for the measured tenant (95% charge items, 5% sold packages, two years), ${thousands(info.otherLines)} for each of nine other tenants, written with one \`INSERT ... SELECT generate_series\` per table (bench/lib/revenue-seed.ts), then \`VACUUM ANALYZE\``,
    `- Range: ${info.year.start} to ${info.year.end} in ${info.timezone} (one year, about half the tenant's lines)`,
    `- Requests: each target warmed up 3 times, then ${info.shape.sequential} sequential requests, then ${info.shape.workers} concurrent loops of ${info.shape.each}; times in ms, measured by the benchmark process on the same machine`,
    `- \`app\` = the REST route over HTTP (API key auth, rate limit, REST bridge, Apollo Gateway, analytics subgraph, one read-only transaction with \`statement_timeout\` ${info.statementTimeoutMs} ms); \`floor\` = the same SQL statements and parameters sent by \`pg\` from a pool in the benchmark process (no HTTP, no transaction)`,
    `- Targets: ${runs.map((r) => `\`${r.target.name}\` = ${r.target.request}`).join('; ')}`,
    '',
    timing,
    '',
    verdicts,
    '',
    'Index use (EXPLAIN (ANALYZE, BUFFERS) of the floor statements after the timing; "without" drops the covering indexes of Migration20261205000000_revenue_indexes inside a rolled-back transaction):',
    '',
    plans,
    '',
    ...details,
    '',
    runs.every((r) => r.agrees) ? 'Valid run: every target answered 200 and the app and the floor agreed on the figures.' : 'INVALID run: some target disagreed with its floor (see the log).',
  ];
  return lines.join('\n');
}
