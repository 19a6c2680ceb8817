import { Migrator, type Migration } from '@mikro-orm/migrations';
import { MikroORM, PostgreSqlDriver, ReflectMetadataProvider } from '@mikro-orm/postgresql';
import type { Constructor, MigrationObject } from '@mikro-orm/core';
import { Client } from 'pg';
import { waitUntilIdle } from './http-drain';

/** What a subgraph hands to the ORM: its schema name, entity classes and migrations in order. */
export interface OrmDefinition {
  /** PostgreSQL schema owned by the subgraph (docs/decisions.md, Data ownership). */
  schema: string;
  entities: Function[];
  migrations: MigrationObject[];
}

/** Connection pool size per ORM unless DB_POOL_MAX says otherwise; four subgraphs share one server in all-in-one mode. */
export const DEFAULT_POOL_MAX = 10;

/** Opens the subgraph's ORM on its own PostgreSQL schema. Entities are listed, never discovered by glob. */
export async function openOrm(definition: OrmDefinition, clientUrl: string, poolMax = DEFAULT_POOL_MAX): Promise<MikroORM> {
  return MikroORM.init({
    driver: PostgreSqlDriver,
    clientUrl,
    schema: definition.schema,
    entities: definition.entities as Constructor[],
    metadataProvider: ReflectMetadataProvider,
    extensions: [Migrator],
    forceUtcTimezone: true,
    allowGlobalContext: false,
    pool: { min: 0, max: poolMax },
    discovery: { warnWhenNoEntities: false },
    migrations: {
      tableName: `${definition.schema}.mikro_orm_migrations`,
      migrationsList: definition.migrations,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
    },
  });
}

/** What knex's connection pool (tarn) tells about its connections. */
interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
}

/** The ORM pool's connections: in use, idle, and queries waiting for one (metrics, shutdown). */
export interface PoolCounts {
  used: number;
  free: number;
  pending: number;
}

/** The ORM pool's counts now; all zero before its first connection or after it closed. */
export function poolCounts(orm: MikroORM): PoolCounts {
  const pool = (orm.em.getConnection().getKnex() as unknown as { client: { pool?: TarnPool } }).client.pool;
  if (!pool) return { used: 0, free: 0, pending: 0 };
  return { used: pool.numUsed(), free: pool.numFree(), pending: pool.numPendingAcquires() + pool.numPendingCreates() };
}

/** Whether a query runs on the ORM's pool or waits for one of its connections. */
export function poolBusy(orm: MikroORM): boolean {
  const counts = poolCounts(orm);
  return counts.used + counts.pending > 0;
}

/**
 * Closes the ORM once its pool has gone quiet, or after `graceMs`: closing at once would abort the
 * queries still waiting for a connection, such as those of a request whose client has gone.
 */
export async function closeWhenIdle(orm: MikroORM, graceMs: number): Promise<void> {
  await waitUntilIdle(() => poolBusy(orm), graceMs);
  await orm.close();
}

/** Names a checked-in migration class for MikroORM's `migrationsList`. */
export function migration(name: string, cls: Constructor<Migration>): MigrationObject {
  return { name, class: cls };
}

/**
 * Applies pending migrations under a PostgreSQL advisory lock, so several processes (parallel
 * test workers, replicas starting together) never run the same migration twice.
 */
export async function runMigrations(orm: MikroORM, clientUrl: string, schema: string): Promise<string[]> {
  const lock = new Client({ connectionString: clientUrl });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock(hashtext($1))', [`migrations:${schema}`]);
    const applied = await orm.getMigrator().up();
    return applied.map((m) => m.name);
  } finally {
    await lock.query('select pg_advisory_unlock(hashtext($1))', [`migrations:${schema}`]).catch(() => undefined);
    await lock.end();
  }
}
