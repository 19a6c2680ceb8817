import type { Env } from '../subgraph-definition';

/** The read replica a subgraph's stale-tolerant reads may use (docs/decisions.md, "Analytics reads from a replica"). */
export interface ReplicaSettings {
  /** DATABASE_REPLICA_URL; null: every read on the primary, as without a replica. */
  url: string | null;
  /** REPLICA_MAX_LAG_MS: past this lag (or with the replica unreachable) those reads go to the primary. */
  maxLagMs: number;
}

/** REPLICA_MAX_LAG_MS unset: a dashboard list or a revenue figure 5 s old is still the one a person acts on. */
export const DEFAULT_REPLICA_MAX_LAG_MS = 5_000;

/** No replica: what tests and processes without the settings get. */
export const NO_REPLICA: ReplicaSettings = { url: null, maxLagMs: DEFAULT_REPLICA_MAX_LAG_MS };

/**
 * Reads DATABASE_REPLICA_URL (a postgres:// URL, optional) and REPLICA_MAX_LAG_MS (0 to 3600000,
 * default 5000); a wrong value is added to `problems`, so the loader lists every problem at once.
 * Both the gateway's loader (in-process subgraphs) and a subgraph service's read them.
 */
export function readReplicaSettings(env: Env, problems: string[]): ReplicaSettings {
  const url = env.DATABASE_REPLICA_URL?.trim() || null;
  if (url && !/^postgres(ql)?:\/\//.test(url)) problems.push('DATABASE_REPLICA_URL must start with postgres:// or postgresql://');
  // Without a primary of the operator's own, the embedded PostgreSQL has no replica to name.
  if (url && !env.DATABASE_URL?.trim()) problems.push('DATABASE_REPLICA_URL needs DATABASE_URL (the embedded PostgreSQL has no replica)');
  const raw = env.REPLICA_MAX_LAG_MS?.trim();
  let maxLagMs = DEFAULT_REPLICA_MAX_LAG_MS;
  if (raw) {
    const value = Number(raw);
    if (Number.isInteger(value) && value >= 0 && value <= 3_600_000) maxLagMs = value;
    else problems.push(`REPLICA_MAX_LAG_MS must be a whole number of milliseconds from 0 to 3600000 (got "${raw}")`);
  }
  return { url: url && /^postgres(ql)?:\/\//.test(url) ? url : null, maxLagMs };
}
