/**
 * How long a query waits for a pooled connection, and a new connection for PostgreSQL's answer,
 * before it fails: a database that is down or saturated is then a 503 with Retry-After within a
 * bound (schema/dependency-outage.ts) instead of requests held for knex's default 60 s or a TCP
 * connect that never ends (docs/operations.md, Dependencies and their time limits).
 */
export const POOL_ACQUIRE_TIMEOUT_MS = 10_000;
/** How long opening a connection to PostgreSQL may take. */
export const CONNECT_TIMEOUT_MS = 5_000;
