import type { LoadShape, LoadSummary } from './lib/load';
import { formatMachine, type Machine } from './lib/machine';
import type { ClusterRss } from './lib/process-tree';
import { markdownTable } from './lib/table';

/** What one route costs per request, measured under load. */
export interface RouteCost {
  route: string;
  load: LoadSummary;
  /** Server CPU (the app's processes) per request sent. */
  cpuMsPerRequest: number;
  /** Time the database's backends spent executing statements per request (pg_stat_database.active_time). */
  dbMsPerRequest: number;
  /** The database server's CPU (all its processes) per request; NaN when it runs elsewhere. */
  dbCpuMsPerRequest: number;
  /** Most client connections the app held to the database while the route ran. */
  connections: number;
}

/** Everything the capacity section says. */
export interface CapacityRun {
  costs: RouteCost[];
  rss: ClusterRss;
  workers: number;
  machine: Machine;
  database: string;
  shape: LoadShape;
  rounds: number;
}

const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

/** The capacity section of bench/RESULTS.md: per-route costs and the app's memory, the inputs of docs/scaling.md. */
export function buildCapacityReport(run: CapacityRun): string {
  const rows = run.costs.map((cost) => [
    cost.route,
    String(cost.load.sent),
    fixed(cost.load.requestsPerSecond, 0),
    `${fixed(cost.load.p50Ms, 1)} / ${fixed(cost.load.p99Ms, 1)}`,
    fixed(cost.cpuMsPerRequest),
    fixed(cost.dbMsPerRequest),
    fixed(cost.dbCpuMsPerRequest),
    fixed(1000 / cost.cpuMsPerRequest, 0),
    String(cost.connections),
  ]);
  const table = markdownTable(
    ['route', 'requests', 'req/s', 'p50 / p99 ms', 'app CPU ms / req', 'DB statement ms / req', 'DB CPU ms / req', 'req per app core-second', 'DB connections held'],
    rows,
    [false, true, true, true, true, true, true, true, true],
  );
  const workers = run.rss.workers.length ? run.rss.workers : [run.rss.primary];
  return [
    '## Capacity: what a request costs the app and the database (issue 36)',
    '',
    `${formatMachine(run.machine)}; ${run.database}; all-in-one, ${run.workers} HTTP worker(s); ${run.shape.connections} connections, ${run.rounds} round(s) of ${run.shape.durationSeconds} s per route, routes alternating order. Written by \`BENCH_ONLY=capacity npm run bench\` (bench/capacity.ts); docs/scaling.md turns these figures into replicas and database sizes.`,
    '',
    table,
    '',
    'App CPU: user + system time of the app\'s processes (gateway and in-process subgraphs) over the requests sent. DB statement time: the increase of `pg_stat_database.active_time` (statements executing: CPU, lock and I/O waits, a commit\'s wait for its WAL flush) over the same requests, read after the backends report (11 s after the load); DB CPU: user + system time of every process of the database server (backends, WAL writer, checkpointer), when it runs on this machine. Connections: client backends of the database half-way through the load (pool of `DB_POOL_MAX` per subgraph per worker, opened as needed).',
    '',
    `Memory after the loads: ${workers.map((mib) => `${fixed(mib, 0)} MiB`).join(', ')} per HTTP worker${run.rss.workers.length ? `, primary ${fixed(run.rss.primary, 0)} MiB` : ''}.`,
  ].join('\n');
}
