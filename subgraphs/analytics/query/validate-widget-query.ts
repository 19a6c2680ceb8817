import type { ValidationIssue } from '../../../schema/errors';
import type { Loc } from '../services/input-rules';
import { parseQuery } from './parse-query';

/** A widget's analytics query in Cube's REST shape; members are `cube.member` names. */
export interface WidgetQuery {
  measures?: string[];
  dimensions?: string[];
  timeDimensions?: Record<string, unknown>[];
  filters?: Record<string, unknown>[];
  order?: Record<string, unknown> | unknown[];
  limit?: number;
  offset?: number;
  timezone?: string;
}

/** The outcome of checking a query: the query to store, or the 422 issues under `loc`. */
export type WidgetQueryCheck = { ok: true; query: WidgetQuery } | { ok: false; issues: ValidationIssue[] };

/**
 * Called on every widget save: the query engine's own parser checks members, operators, date
 * ranges, limits and the time zone against the model, so a saved widget is one that runs. A
 * draft that selects nothing yet is allowed. The query is stored as sent (relative date ranges
 * stay relative; they are resolved when the widget's query runs).
 */
export function validateWidgetQuery(query: unknown, loc: Loc): WidgetQueryCheck {
  const parsed = parseQuery(query, loc, { now: new Date(), requireMembers: false });
  return parsed.ok ? { ok: true, query: query as WidgetQuery } : { ok: false, issues: parsed.issues };
}
