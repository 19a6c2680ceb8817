/**
 * Bounds of analytics queries, fixed by the API. The statement timeout is a setting
 * (ANALYTICS_STATEMENT_TIMEOUT_MS, analytics-deps.ts): a query (or a revenue breakdown) that runs
 * longer is cancelled by PostgreSQL and answered 422 ("query too expensive"): the caller can
 * narrow it, which a 5xx would not say.
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
});
