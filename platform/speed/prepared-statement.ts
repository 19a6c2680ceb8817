import type { EntityManager } from '@mikro-orm/postgresql';
import { readPoolOf, type ReadConnection, type ReadQuery } from './read-pool';

/**
 * A statement PostgreSQL plans once per connection: a fixed name and `$n` placeholders. It names
 * its columns (never `*`): a migration that adds a column must not change a cached plan's result type.
 */
export interface PreparedStatement {
  /** Unique per statement text across the process; pg refuses one name for two texts. */
  name: string;
  text: string;
}

/** The slice of knex's client that lends connections; a knex transaction lends its own connection. */
interface ConnectionLender {
  acquireConnection(): Promise<ReadConnection>;
  releaseConnection(connection: ReadConnection): Promise<unknown> | unknown;
}

/**
 * Runs a named prepared statement: inside a transaction on the transaction's connection, else on
 * the ORM's read pool (read-pool.ts), or its own pool when it has none. For the few reads on every
 * request's path: the ORM's `execute` inlines the values into a fresh SQL text that the server
 * parses and plans each time, and wraps it in knex's query builder; a prepared statement is parsed
 * once per connection and the driver is called directly (bench/RESULTS.md). Rows come back with
 * the ORM's type parsers (timestamps as text), as from `execute`.
 */
export async function queryPrepared<T>(em: EntityManager, statement: PreparedStatement, values: unknown[]): Promise<T[]> {
  const transaction = em.getTransactionContext();
  const readPool = transaction ? undefined : readPoolOf(em);
  // Without a read pool (SPEED_PLUMBING without `read-pool`): the ORM's own `execute`, the plain way.
  if (!readPool) return em.execute<T[]>(statement.text.replace(/\$(\d+)/g, '?'), [...statement.text.matchAll(/\$(\d+)/g)].map((m) => values[Number(m[1]) - 1]));
  try {
    const result = await runQuery(readPool ?? (await lent(em, transaction)), { name: statement.name, text: statement.text, values });
    return result.rows as T[];
  } catch (error) {
    // As pg's promise form does: a stack that leads back to the caller, not to the socket read.
    if (error instanceof Error) Error.captureStackTrace(error);
    throw error;
  }
}

/** A connection lent by knex (the transaction's own, or one of the ORM pool's), given back once the statement has run. */
async function lent(em: EntityManager, transaction: unknown): Promise<ReadConnection> {
  const knex = (transaction ?? em.getConnection().getKnex()) as { client: ConnectionLender };
  const connection = await knex.client.acquireConnection();
  // knex releases synchronously and answers `Promise.resolve()` (a transaction's client keeps its
  // connection and answers the same): nothing to wait for before the rows go on.
  const release = () => void knex.client.releaseConnection(connection);
  return {
    query(config, callback) {
      try {
        connection.query(config, (error, result) => {
          release();
          callback(error, result);
        });
      } catch (error) {
        release();
        throw error;
      }
    },
  };
}

/**
 * `client.query` in its callback form, wrapped in a promise of our own. The promise form of pg 8
 * stores on each Query a callback closing over that Query and wraps the promise in a `.catch`;
 * V8 (Node 24) kept those objects, and with them everything of the request awaiting them, alive
 * through scavenges after the request ended: every REST request's objects (pg's Query, Result,
 * RowDescription fields, the resolver's frames) were promoted to the old generation, 2.3 MiB per
 * scavenge at 4 connections with the optimizing compilers off, against 0.1-0.2 MiB this way.
 * queryPrepared gives errors the caller's stack, as the promise form's `.catch` does.
 */
function runQuery(connection: ReadConnection, config: ReadQuery): Promise<{ rows: unknown[] }> {
  return new Promise((resolve, reject) => {
    connection.query(config, (error, result) => (error ? reject(error) : resolve(result)));
  });
}
