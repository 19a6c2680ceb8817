/** Reads the statement timeout once; a wrong value stops the start with a readable message, as the gateway's config does. */
function statementTimeoutMs(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 5_000;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 100 || value > 600_000) {
    throw new Error(`ANALYTICS_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds from 100 to 600000 (got "${raw}")`);
  }
  return value;
}

/**
 * Bounds of analytics queries. A query (or a revenue breakdown) that runs longer than the
 * statement timeout is cancelled by PostgreSQL and answered 422 ("query too expensive"): the
 * caller can narrow it, which a 5xx would not say.
 */
export const QUERY_LIMITS = Object.freeze({
  /** Rows a query answers when it sets no `limit`. */
  defaultLimit: 1_000,
  /** Largest `limit` accepted; more is a 422. */
  maxLimit: 10_000,
  /** Measures, dimensions or time dimensions per query. */
  maxMembers: 50,
  /** Filters and filter groups per query, counted across all nesting levels. */
  maxFilterNodes: 100,
  /** Deepest `and`/`or` nesting. */
  maxFilterDepth: 5,
  /** Values of one filter. */
  maxValues: 1_000,
  /** Longest filter value. */
  maxValueLength: 1_000,
  /** `ANALYTICS_STATEMENT_TIMEOUT_MS`, default 5000. */
  statementTimeoutMs: statementTimeoutMs(process.env.ANALYTICS_STATEMENT_TIMEOUT_MS),
});
