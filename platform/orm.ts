import { Migrator, type Migration } from '@mikro-orm/migrations';
import { MikroORM, PostgreSqlDriver, ReflectMetadataProvider } from '@mikro-orm/postgresql';
import type { Constructor, MigrationObject } from '@mikro-orm/core';
import { Client } from 'pg';
import { waitUntilIdle } from './http-drain';
import { attachReadPool, readPoolOf } from './speed/read-pool';
import { CONNECT_TIMEOUT_MS, POOL_ACQUIRE_TIMEOUT_MS } from './database-timeouts';

/** What a subgraph hands to the ORM: its schema name, entity classes and migrations in order. */
export interface OrmDefinition {
  /** PostgreSQL schema owned by the subgraph (docs/decisions.md, Data ownership). */
  schema: string;
  entities: Function[];
  migrations: MigrationObject[];
}

/** Connection pool size per ORM unless DB_POOL_MAX says otherwise; four subgraphs share one server in all-in-one mode. */
export const DEFAULT_POOL_MAX = 10;


/**
 * Opens the subgraph's ORM on its own PostgreSQL schema. Entities are listed, never discovered by
 * glob. With `replicaUrl`, MikroORM's `read` connection is that replica (a pool as large as the
 * primary's, opened as reads come); `preferReadReplicas: false` keeps every read on the primary
 * unless it asks for `read` (platform/replica/stale-read.ts): read-your-writes is the default.
 */
export async function openOrm(definition: OrmDefinition, clientUrl: string, poolMax = DEFAULT_POOL_MAX, readPool = true, replicaUrl: string | null = null): Promise<MikroORM> {
  const orm = await MikroORM.init({
    driver: PostgreSqlDriver,
    clientUrl,
    replicas: replicaUrl ? [{ name: 'replica', clientUrl: replicaUrl }] : [],
    preferReadReplicas: false,
    schema: definition.schema,
    entities: definition.entities as Constructor[],
    metadataProvider: ReflectMetadataProvider,
    extensions: [Migrator],
    forceUtcTimezone: true,
    allowGlobalContext: false,
    pool: { min: 0, max: poolMax, acquireTimeoutMillis: POOL_ACQUIRE_TIMEOUT_MS },
    driverOptions: { connection: { connectionTimeoutMillis: CONNECT_TIMEOUT_MS } },
    discovery: { warnWhenNoEntities: false },
    migrations: {
      tableName: `${definition.schema}.mikro_orm_migrations`,
      migrationsList: definition.migrations,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
    },
  });
  // The hot prepared reads' own pool, as large as the ORM's: those reads no longer take its connections.
  if (readPool) attachReadPool(orm, poolMax);
  return orm;
}

/** Closes the ORM and its read pool (openOrm gives it one): what `orm.close()` alone would leave open. */
export async function closeOrm(orm: MikroORM): Promise<void> {
  await readPoolOf(orm.em)?.close();
  await orm.close();
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

/** One knex connection pool's counts; zero before its first connection or after it closed. */
function knexCounts(connection: ReturnType<MikroORM['em']['getConnection']>): PoolCounts {
  const pool = (connection.getKnex() as unknown as { client: { pool?: TarnPool } }).client.pool;
  if (!pool) return { used: 0, free: 0, pending: 0 };
  return { used: pool.numUsed(), free: pool.numFree(), pending: pool.numPendingAcquires() + pool.numPendingCreates() };
}

/** The ORM's pools' counts now (knex's, its replica's when it has one, and its read pool's, summed); all zero before their first connection or after they closed. */
export function poolCounts(orm: MikroORM): PoolCounts {
  const primary = orm.em.getConnection('write');
  const replica = orm.em.getConnection('read');
  // Without replicas MikroORM answers `read` with the primary's connection: counted once.
  const counts = [readPoolOf(orm.em)?.counts() ?? { used: 0, free: 0, pending: 0 }, knexCounts(primary), ...(replica === primary ? [] : [knexCounts(replica)])];
  return counts.reduce((sum, c) => ({ used: sum.used + c.used, free: sum.free + c.free, pending: sum.pending + c.pending }));
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
  await closeOrm(orm);
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

/** Opens an ORM for a schema only to apply its pending migrations, then closes it (schemas no process keeps open, such as the audit trail's). */
export async function migrateAlone(definition: OrmDefinition, clientUrl: string): Promise<string[]> {
  const orm = await openOrm(definition, clientUrl, 1, false);
  try {
    return await runMigrations(orm, clientUrl, definition.schema);
  } finally {
    await closeOrm(orm);
  }
}
