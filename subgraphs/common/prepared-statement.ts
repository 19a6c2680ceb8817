import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * A statement PostgreSQL plans once per connection: a fixed name and `$n` placeholders. It names
 * its columns (never `*`): a migration that adds a column must not change a cached plan's result type.
 */
export interface PreparedStatement {
  /** Unique per statement text across the process; pg refuses one name for two texts. */
  name: string;
  text: string;
}

type QueryConfig = { name: string; text: string; values: unknown[] };

/** The slice of node-postgres' client a pooled connection is: its callback form (see runQuery). */
interface PgConnection {
  query(config: QueryConfig, callback: (error: Error | null, result: { rows: unknown[] }) => void): void;
}

/** The slice of knex's client that lends connections; a knex transaction lends its own connection. */
interface ConnectionLender {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<unknown> | unknown;
}

/**
 * Runs a named prepared statement on a connection of the entity manager's own pool (the one of
 * its transaction, when it is in one). For the few reads on every request's path: the ORM's
 * `execute` inlines the values into a fresh SQL text that the server parses and plans each time,
 * and wraps it in knex's query builder; a prepared statement is parsed once per connection and the
 * driver is called directly (bench/RESULTS.md). Rows come back with the ORM's type parsers
 * (timestamps as text), as from `execute`.
 */
export async function queryPrepared<T>(em: EntityManager, statement: PreparedStatement, values: unknown[]): Promise<T[]> {
  const knex = (em.getTransactionContext() ?? em.getConnection().getKnex()) as unknown as { client: ConnectionLender };
  const connection = await knex.client.acquireConnection();
  try {
    let result: { rows: unknown[] };
    try {
      result = await runQuery(connection, { name: statement.name, text: statement.text, values });
    } catch (error) {
      // As pg's promise form does: a stack that leads back to the caller, not to the socket read.
      if (error instanceof Error) Error.captureStackTrace(error);
      throw error;
    }
    return result.rows as T[];
  } finally {
    // knex releases synchronously and answers `Promise.resolve()` (a transaction's client keeps its
    // connection and answers the same): awaiting that only delayed the rows by a tick.
    void knex.client.releaseConnection(connection);
  }
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
function runQuery(connection: PgConnection, config: QueryConfig): Promise<{ rows: unknown[] }> {
  return new Promise((resolve, reject) => {
    connection.query(config, (error, result) => (error ? reject(error) : resolve(result)));
  });
}
