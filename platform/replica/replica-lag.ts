/** What one probe of the replica found. */
export interface LagReading {
  /** Seconds behind the primary; 0 when it has replayed all it received; null when it cannot tell. */
  lagSeconds: number | null;
  /** False: the server is no standby (a primary, e.g. the replica promoted after a failover). */
  inRecovery: boolean;
}

/**
 * The replica's lag, per PostgreSQL's recovery information functions (docs, "Recovery Control
 * Functions" and pg_stat_wal_receiver):
 * - not in recovery: a primary replays nothing and is behind nothing, so 0 (docs/decisions.md says
 *   why such a server is used rather than refused);
 * - everything received replayed while the WAL receiver streams: 0, however long ago the last
 *   transaction was (an idle primary sends nothing, and `now() - pg_last_xact_replay_timestamp()`
 *   alone would grow without end);
 * - otherwise the age of the last transaction replayed, which overstates the lag of a replica cut
 *   off from an idle primary: it errs towards the primary. Null (unknown) before any was replayed.
 * `pg_stat_wal_receiver` shows its row (pid) to any role; its details need pg_read_all_stats.
 */
export const LAG_SQL = `select pg_is_in_recovery() as in_recovery,
  case
    when not pg_is_in_recovery() then 0
    when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() and exists (select 1 from pg_stat_wal_receiver) then 0
    else extract(epoch from now() - pg_last_xact_replay_timestamp())
  end as lag_seconds`;

/** A row of LAG_SQL as the driver hands it (numeric as text). */
export function lagReading(row: { in_recovery: unknown; lag_seconds: unknown } | undefined): LagReading {
  if (!row) return { lagSeconds: null, inRecovery: false };
  const lag = row.lag_seconds === null || row.lag_seconds === undefined ? null : Number(row.lag_seconds);
  // Clocks of the two servers may differ by a little: a negative age is no lag.
  return { lagSeconds: lag === null || Number.isNaN(lag) ? null : Math.max(0, lag), inRecovery: row.in_recovery === true };
}

/** Whether stale-tolerant reads may use a replica this far behind: an unknown lag may be any lag. */
export function lagAcceptable(lagSeconds: number | null, maxLagMs: number): boolean {
  return lagSeconds !== null && lagSeconds * 1000 <= maxLagMs;
}

/** Readings past the bound in a row that move reads off a replica in use. */
export const PAST_BOUND_READINGS = 2;

/**
 * Whether stale-tolerant reads use the replica after this reading. A replica in use leaves at the
 * second reading in a row past the bound, not the first: on a quiet primary one write makes the
 * replica "behind" for the milliseconds of its replay, and LAG_SQL then reports the age of the
 * previous transaction replayed, which may be minutes. A replica not in use comes back at the
 * first reading within the bound; an unknown lag or a failed probe leaves at once.
 */
export function nextInUse(inUse: boolean, pastBoundInARow: number, lagSeconds: number | null, maxLagMs: number): boolean {
  if (lagSeconds === null) return false;
  if (lagAcceptable(lagSeconds, maxLagMs)) return true;
  return inUse && pastBoundInARow < PAST_BOUND_READINGS;
}
