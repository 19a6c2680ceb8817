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

/** The slice of node-postgres' client a pooled connection is. */
interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
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
    const result = await connection.query({ name: statement.name, text: statement.text, values });
    return result.rows as T[];
  } finally {
    await knex.client.releaseConnection(connection);
  }
}
