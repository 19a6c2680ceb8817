import type { EntityManager } from '@mikro-orm/postgresql';
import { dependencyOutage } from '../../schema/dependency-outage';
import { replicaMonitorOf } from './replica-monitor';
import { staleReads } from './replica-metrics';

/** MikroORM's connection types: `read` is its replica (`replicas`), `write` the primary. */
export type ReadConnection = 'read' | 'write';

/**
 * A replica's query cancelled because WAL replay needed what it read (PostgreSQL, "Handling Query
 * Conflicts"): the replica is fine, only this read must go elsewhere.
 */
function recoveryConflict(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && typeof cause === 'object' && depth < 4; depth++) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (code === '40001' && typeof message === 'string' && /conflict with recovery/.test(message)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Runs a read that accepts the replica's staleness (docs/decisions.md, "Analytics reads from a
 * replica") on the connection the ORM's replica monitor chooses, passing `work` MikroORM's
 * connection type for its `find`/`count` (`connectionType`), `getConnection` or `getKnex`. A read
 * the replica could not serve (unreachable, restarting, or cancelled by a recovery conflict) runs
 * again on the primary: it is a read, so running it twice changes nothing. Without a replica
 * (DATABASE_REPLICA_URL unset) it runs on the primary, as every other read.
 */
export async function staleRead<T>(em: EntityManager, work: (connection: ReadConnection) => Promise<T>): Promise<T> {
  const monitor = replicaMonitorOf(em);
  if (!monitor) return work('write');
  if (monitor.connection() === 'read') {
    try {
      const result = await work('read');
      staleReads.inc({ pool: monitor.pool, connection: 'replica' });
      return result;
    } catch (error) {
      const outage = dependencyOutage(error) !== undefined;
      if (!outage && !recoveryConflict(error)) throw error;
      if (outage) monitor.unreachable(error);
    }
  }
  const result = await work('write');
  staleReads.inc({ pool: monitor.pool, connection: 'primary' });
  return result;
}
