import { Counter, Gauge } from 'prom-client';

/** What the gauges read of one replica monitor at scrape time. */
export interface WatchedReplica {
  /** The ORM pool (its schema) whose stale-tolerant reads the replica serves. */
  readonly pool: string;
  /** Seconds behind the primary at the last probe; null when unknown or unreachable. */
  lagSeconds(): number | null;
  /** Whether stale-tolerant reads go to the replica now (else the primary). */
  inUse(): boolean;
}

/** The monitors running in this process (tests run several copies of a subgraph at once). */
const watched = new Set<WatchedReplica>();

/*
 * On prom-client's global registry, as the platform's other metrics (gateway/metrics/instruments.ts),
 * so the gateway's metrics port serves them in-process and a subgraph service's serves its own.
 * Under WEB_CONCURRENCY the worst worker shows: the largest lag, and 0 in use if any fell back.
 */
new Gauge({
  name: 'hpp_db_replica_lag_seconds',
  help: 'How far the read replica is behind the primary at its last probe (every second), by pool (schema); NaN when unknown or unreachable',
  labelNames: ['pool'] as const,
  aggregator: 'max',
  collect() {
    this.reset();
    for (const replica of watched) this.set({ pool: replica.pool }, replica.lagSeconds() ?? Number.NaN);
  },
});

new Gauge({
  name: 'hpp_db_replica_in_use',
  help: 'Whether stale-tolerant reads (dashboard lists, analytics queries, revenue aggregates) go to the read replica (1) or, its lag past REPLICA_MAX_LAG_MS or unreachable, to the primary (0), by pool',
  labelNames: ['pool'] as const,
  aggregator: 'min',
  collect() {
    this.reset();
    for (const replica of watched) this.set({ pool: replica.pool }, replica.inUse() ? 1 : 0);
  },
});

/** Stale-tolerant reads by the connection that answered them. */
export const staleReads = new Counter({
  name: 'hpp_db_stale_reads_total',
  help: 'Reads that accept the replica\'s staleness, by pool and the connection that answered: replica, or primary (replica lagging, unreachable, or the read failed on it)',
  labelNames: ['pool', 'connection'] as const,
});

/** Shows a monitor in the gauges until the returned function is called. */
export function watchReplica(replica: WatchedReplica): () => void {
  watched.add(replica);
  return () => void watched.delete(replica);
}
