import { ServiceUnavailableError } from './errors';

/** Seconds a client is told to wait when the database or Redis did not answer: a restart or a failover takes about this long. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

/** System error codes of a connection that could not be made or was lost. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/**
 * PostgreSQL SQLSTATEs of a server that cannot serve now, not of a statement at fault: class 08
 * (connection exception), 57P01-57P03 (shutting down, crashed, starting up), 53300 (too many
 * connections).
 */
const UNAVAILABLE_SQLSTATES = /^(08...|57P0[123]|53300)$/;

// Where a driver's message starts: the text's start, or after the `<sql> - ` knex puts in front of a failed query's message.
const START = String.raw`(?:^|\s-\s)`;

/** Messages of the pg driver, the knex pool and ioredis for a dependency that did not answer (they carry no code). */
const UNAVAILABLE_MESSAGES = [
  new RegExp(`${START}Connection terminated`), // pg: the server closed the connection (a restart), or connecting timed out
  // knex: the pool had no connection to give within its timeout (MikroORM's DriverException keeps the message, not the name)
  new RegExp(`${START}(?:Knex: )?Timeout acquiring a connection`),
  // knex: a transaction whose BEGIN or SAVEPOINT failed on a connection the restart broke; knex
  // swallows that statement's error and refuses the transaction's next query with this one
  new RegExp(`${START}Transaction query already complete`),
  new RegExp(`${START}timeout exceeded when trying to connect`), // pg-pool (the hot reads' pool): the same
  new RegExp(`${START}Client (has encountered a connection error|was closed) and is not queryable`), // pg: a query on a connection the restart broke
  /^Command timed out/, // ioredis: commandTimeout
  /enableOfflineQueue options is false/, // ioredis: not connected and no queue
  /^Connection is closed/, // ioredis
];

/** Error names of the same (MikroORM's connection exception, knex's pool timeout, ioredis's retries spent). */
const UNAVAILABLE_NAMES = new Set(['ConnectionException', 'KnexTimeoutError', 'MaxRetriesPerRequestError']);

/** Whether one error (not its causes) says a dependency is unavailable. */
function isOutage(error: object): boolean {
  const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATES.test(code))) return true;
  if (typeof name === 'string' && UNAVAILABLE_NAMES.has(name)) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message));
}

/**
 * The one decision that an internal failure is a dependency's outage (docs/api.md, Errors): the
 * database refused or lost the connection, is restarting or shutting down, its pool had no
 * connection in time, or Redis did not answer. Such a request did nothing it could not do again,
 * so it is a 503 with Retry-After on every surface instead of a 500; the cause stays in the log.
 * Looks through `cause` and graphql-js's `originalError`; undefined for anything else.
 */
export function dependencyOutage(error: unknown): ServiceUnavailableError | undefined {
  for (let cause = error, depth = 0; cause && typeof cause === 'object' && depth < 6; depth++) {
    if (cause instanceof ServiceUnavailableError) return cause;
    if (isOutage(cause)) return new ServiceUnavailableError('Service temporarily unavailable; retry the request', OUTAGE_RETRY_AFTER_SECONDS, { cause: error });
    const next = (cause as { originalError?: unknown; cause?: unknown }).originalError ?? (cause as { cause?: unknown }).cause;
    cause = next;
  }
  return undefined;
}
