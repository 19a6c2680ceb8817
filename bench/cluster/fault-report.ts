import { markdownTable } from '../lib/table';
import { LATENCY_FAULT } from './fault-catalogue';
import { percentile, type FaultResult } from './faults';
import type { KindTally } from './load-client';

const failures = (tally: KindTally) => Object.values(tally.failed).reduce((sum, n) => sum + n, 0);
const causes = (tallies: KindTally[]) => {
  const all: Record<string, number> = {};
  for (const tally of tallies) for (const [cause, n] of Object.entries(tally.failed)) all[cause] = (all[cause] ?? 0) + n;
  return Object.entries(all).map(([cause, n]) => `${n} x ${cause}`).join(', ') || 'none';
};
/** `min-max` over the runs, or one figure when they agree. */
const spread = (values: number[]) => (Math.min(...values) === Math.max(...values) ? String(values[0]) : `${Math.min(...values)}-${Math.max(...values)}`);

/** The latency fault's read p50 less the steady run's, per run (the latency each request gained), or null without both. */
function addedLatency(results: FaultResult[][]): string | null {
  const p50s = (prefix: string) => results.find((rounds) => rounds[0].fault.startsWith(prefix))?.map((r) => percentile(r.report.read.latenciesMs, 50));
  const [steady, impaired] = [p50s('none'), p50s(LATENCY_FAULT)];
  if (!steady || !impaired) return null;
  return impaired.map((p50, run) => (p50 - steady[Math.min(run, steady.length - 1)]).toFixed(1)).join(', ');
}

/** The cluster-faults section of bench/RESULTS.md: per fault, the first run's figures and the spread over all runs. */
export function buildFaultReport(results: FaultResult[][], run: { machine: string; seconds: number; concurrency: number; date: string }): string {
  const rows = results.map((rounds) => {
    const first = rounds[0];
    const kinds = (pick: (r: FaultResult) => KindTally) => rounds.map(pick);
    return [
      first.fault,
      `${first.report.read.sent} / ${first.report.dashboard.sent} / ${first.report.payment.sent}`,
      `${spread(kinds((r) => r.report.read).map(failures))} / ${spread(kinds((r) => r.report.dashboard).map(failures))} / ${spread(kinds((r) => r.report.payment).map(failures))}`,
      causes(rounds.flatMap((r) => [r.report.read, r.report.dashboard, r.report.payment])),
      spread(rounds.map((r) => r.report.payment.retried)),
      rounds.map((r) => `${r.writes.dashboardsFound}/${r.writes.dashboardsAcknowledged}`).join(', '),
      rounds.map((r) => `${r.writes.paymentsFound}/${r.writes.paymentsAcknowledged}`).join(', '),
      spread(rounds.map((r) => r.writes.doubled + r.writes.dashboardsDoubled)),
      `${percentile(first.report.read.latenciesMs, 50).toFixed(0)} / ${percentile(first.report.read.latenciesMs, 99).toFixed(0)}`,
    ];
  });
  const added = addedLatency(results);
  return [
    '## Cluster faults under load (issue 36)',
    '',
    `${run.date}; ${run.machine}; the harness of docs/operations.md ("A cluster on one machine"): HAProxy, 2 gateways, each subgraph on 2 hosts, PostgreSQL with a streaming replica, Redis, each a network namespace. Load from the client host: ${run.concurrency} loops for ${run.seconds} s, each request followed by 50 ms, six reads (\`GET /analytics/dashboards\`) to two dashboard POSTs (never retried) to two payments (\`POST /inventory/members/manual-payment\` under an Idempotency-Key, retried up to three times on no answer, 5xx or 409, after Retry-After or 0.25/1/4 s). Written by \`npm run bench:cluster\` (bench/cluster/fault-bench.ts).`,
    '',
    markdownTable(
      ['fault', 'sent (reads / dashboards / payments), first run', 'failed, spread over runs', 'why', 'payment retries', 'dashboards found / acknowledged, each run', 'payments found / acknowledged, each run', 'written twice', 'read p50 / p99 ms, first run'],
      rows,
    ),
    '',
    'Found: rows on the primary after the run for the writes the client saw acknowledged (a dashboard 201, a payment 200 SUCCEEDED); written twice: members charged more than once plus dashboards of the run stored twice.',
    ...(added ? ['', `Latency added per request by the ${LATENCY_FAULT} fault (its read p50 less the steady run's, run by run): ${added} ms.`] : []),
  ].join('\n');
}
