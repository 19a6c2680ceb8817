import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError, ServiceUnavailableError } from '../../schema/errors';
import { replicaMonitorOf } from './replica-monitor';
import { staleReads } from './replica-metrics';

/** MikroORM's connection types: `read` is its replica (`replicas`), `write` the primary. */
export type ReadConnection = 'read' | 'write';

/** An answer to the request (a 422 for a query too expensive, a 404), which the primary would give too. */
const isAnswer = (error: unknown) => error instanceof DomainError && !(error instanceof ServiceUnavailableError);

/**
 * Runs a read that accepts the replica's staleness (docs/decisions.md, "Analytics reads from a
 * replica") on the connection the ORM's replica monitor chooses, passing `work` MikroORM's
 * connection type for its `find`/`count` (`connectionType`), `getConnection` or `getKnex`.
 *
 * A read the replica fails for any reason but an answer to the request runs again on the
 * primary, and stale-tolerant reads stay there until the next probe (within a second) finds the
 * replica well: it is a read, so running it twice changes nothing, and the causes are the
 * replica's (unreachable, restarting, or a query cancelled by a recovery conflict; knex's
 * messages for these carry the statement and no code, so they are not told apart here). Without a
 * replica (DATABASE_REPLICA_URL unset) it runs on the primary, as every other read.
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
      if (isAnswer(error)) throw error;
      monitor.failed(error);
    }
  }
  const result = await work('write');
  staleReads.inc({ pool: monitor.pool, connection: 'primary' });
  return result;
}
