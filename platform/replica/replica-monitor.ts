import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { lagAcceptable, lagReading, LAG_SQL, nextInUse, type LagReading } from './replica-lag';
import { watchReplica } from './replica-metrics';

const EXTENSION = 'hpp:replica-monitor';

/** How often the replica is asked for its lag: a second is well inside any useful bound. */
export const PROBE_INTERVAL_MS = 1_000;

/**
 * Watches the ORM's read replica (MikroORM's `replicas`, the `read` connection) and says which
 * connection stale-tolerant reads use: the replica while its lag is within `maxLagMs`, else the
 * primary until a probe finds it back under (replica-lag.ts, nextInUse, says when it leaves). Until the first answer, and whenever a probe fails
 * or goes unanswered for an interval, reads stay on the primary: a replica we know nothing of may
 * be any distance behind.
 */
export class ReplicaMonitor {
  private lag: number | null = null;
  private usable = false;
  private pastBound = 0;
  private timer: NodeJS.Timeout | undefined;
  private unwatch: (() => void) | undefined;
  private inFlight: { since: number } | null = null;
  private warnedPrimary = false;

  constructor(
    private readonly orm: MikroORM,
    /** The ORM pool's name (its schema), the metrics' `pool` label. */
    readonly pool: string,
    private readonly maxLagMs: number,
    private readonly log: Logger,
    private readonly intervalMs = PROBE_INTERVAL_MS,
  ) {}

  /** Probes now and then every interval; the timer never keeps the process alive. */
  start(): void {
    this.unwatch = watchReplica({ pool: this.pool, lagSeconds: () => this.lag, inUse: () => this.usable });
    this.tick();
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref();
  }

  /** Stops probing and leaves the gauges; reads then go to the primary. */
  stop(): void {
    clearInterval(this.timer);
    this.unwatch?.();
    this.usable = false;
  }

  /** The connection stale-tolerant reads use now (MikroORM's connection type). */
  connection(): 'read' | 'write' {
    return this.usable ? 'read' : 'write';
  }

  /** Seconds behind at the last probe; null when unknown. */
  lagSeconds(): number | null {
    return this.lag;
  }

  /** A read failed on the replica: the primary until a probe finds it well (within a second). */
  failed(error: unknown): void {
    this.record(null, error);
  }

  /** Resolves once the probe under way (or a new one) has answered: tests wait on it instead of a clock. */
  async probeNow(): Promise<void> {
    await this.probe();
  }

  private tick(): void {
    // One probe at a time: a replica that does not answer would otherwise pile probes up in its pool.
    if (this.inFlight) {
      if (Date.now() - this.inFlight.since > Math.max(this.intervalMs, 1_000)) this.record(null, new Error('the lag probe went unanswered'));
      return;
    }
    void this.probe();
  }

  private async probe(): Promise<void> {
    const started = { since: Date.now() };
    this.inFlight = started;
    try {
      const rows = await this.orm.em.getConnection('read').execute<{ in_recovery: unknown; lag_seconds: unknown }[]>(LAG_SQL);
      this.record(lagReading(rows[0]));
    } catch (error) {
      this.record(null, error);
    } finally {
      if (this.inFlight === started) this.inFlight = null;
    }
  }

  private record(reading: LagReading | null, error?: unknown): void {
    const was = this.usable;
    this.lag = reading?.lagSeconds ?? null;
    this.pastBound = this.lag !== null && !lagAcceptable(this.lag, this.maxLagMs) ? this.pastBound + 1 : 0;
    this.usable = nextInUse(was, this.pastBound, this.lag, this.maxLagMs);
    if (reading && !reading.inRecovery && !this.warnedPrimary) {
      this.warnedPrimary = true;
      this.log.warn({ pool: this.pool }, 'DATABASE_REPLICA_URL names a server that is not a standby: stale-tolerant reads go there with no lag');
    }
    if (was && !this.usable) this.log.warn({ pool: this.pool, lagSeconds: this.lag, maxLagMs: this.maxLagMs, err: error }, 'read replica lagging, unreachable or failing: stale-tolerant reads go to the primary');
    if (!was && this.usable) this.log.info({ pool: this.pool, lagSeconds: this.lag }, 'read replica within its lag bound: stale-tolerant reads go to it');
  }
}

/** Gives the ORM a replica monitor (started) that `replicaMonitorOf` finds from any of its entity managers. */
export function attachReplicaMonitor(orm: MikroORM, pool: string, maxLagMs: number, log: Logger, intervalMs?: number): ReplicaMonitor {
  const monitor = new ReplicaMonitor(orm, pool, maxLagMs, log, intervalMs);
  orm.config.registerExtension(EXTENSION, () => monitor);
  monitor.start();
  return monitor;
}

/** The replica monitor of the ORM that `em` belongs to; undefined for an ORM without a replica. */
export function replicaMonitorOf(em: EntityManager): ReplicaMonitor | undefined {
  return em.config.getExtension<ReplicaMonitor>(EXTENSION);
}
