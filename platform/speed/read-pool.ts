import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Pool, type PoolConfig } from 'pg';
import { POOL_ACQUIRE_TIMEOUT_MS } from '../database-timeouts';

const EXTENSION = 'hpp:read-pool';

/** How long an idle read connection stays open; the pool opens them as reads come and keeps none at rest. */
const IDLE_MS = 10_000;

/** What a read pool tells about its connections (the same counts as the ORM's pool gives). */
export interface ReadPoolCounts {
  used: number;
  free: number;
  pending: number;
}

/** A named prepared statement with its values, as node-postgres takes it. */
export type ReadQuery = { name: string; text: string; values: unknown[] };

/** How node-postgres answers a statement in its callback form. */
export type ReadCallback = (error: Error | null, result: { rows: unknown[] }) => void;

/** The slice of node-postgres' client a read runs on: its callback form (prepared-statement.ts says why). */
export interface ReadConnection {
  query(config: ReadQuery, callback: ReadCallback): void;
}

/**
 * A node-postgres pool beside the ORM's own, for the named prepared reads outside transactions
 * (queryPrepared). Lending a connection through knex and its pool (tarn) cost about two dozen
 * promises and two timers per read, more than the read itself on the hottest path
 * (docs/decisions.md, "Hot reads as prepared statements"); pg's pool lends one by callback. It
 * connects with the ORM's own connection options (host, database, user, and its type parsers, so
 * rows read the same), opens connections only as reads come, up to the ORM pool's size, and closes
 * them when idle.
 */
export class ReadPool {
  private pool: Pool | null = null;
  private closed = false;

  constructor(
    private readonly options: () => PoolConfig,
    private readonly max: number,
  ) {}

  /** Runs one statement on a pooled connection: pg's pool acquires, runs and releases it. */
  query(config: ReadQuery, callback: ReadCallback): void {
    if (this.closed) return callback(new Error('the read pool is closed'), { rows: [] });
    (this.pool ??= this.open()).query(config, callback);
  }

  /** Connections in use, idle, and reads waiting for one; all zero before the first read. */
  counts(): ReadPoolCounts {
    const pool = this.pool;
    if (!pool) return { used: 0, free: 0, pending: 0 };
    return { used: pool.totalCount - pool.idleCount, free: pool.idleCount, pending: pool.waitingCount };
  }

  /** Ends every connection once its read is done; later reads fail. */
  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = null;
    await pool?.end();
  }

  private open(): Pool {
    const pool = new Pool({ ...this.options(), max: this.max, min: 0, idleTimeoutMillis: IDLE_MS, connectionTimeoutMillis: POOL_ACQUIRE_TIMEOUT_MS });
    // An idle connection the server closed is dropped by the pool and the next read opens another;
    // without a listener the pool's 'error' event would end the process.
    pool.on('error', () => undefined);
    return pool;
  }
}

/** Gives the ORM a read pool of `max` connections at most, on its own connection options. */
export function attachReadPool(orm: MikroORM, max: number): ReadPool {
  const connection = orm.em.getConnection();
  const readPool = new ReadPool(() => connection.getConnectionOptions() as PoolConfig, max);
  orm.config.registerExtension(EXTENSION, () => readPool);
  return readPool;
}

/** The read pool of the ORM that `em` belongs to; undefined for an ORM opened without one. */
export function readPoolOf(em: EntityManager): ReadPool | undefined {
  return em.config.getExtension<ReadPool>(EXTENSION);
}
