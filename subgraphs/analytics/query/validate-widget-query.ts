import type { ValidationIssue } from '../../../schema/errors';
import { isJsonObject, type Loc } from '../services/input-rules';

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

const KEYS = ['measures', 'dimensions', 'timeDimensions', 'filters', 'order', 'limit', 'offset', 'timezone'] as const;

/**
 * THE SEAM for the query engine (issue 5, `execute-query`): called on every widget save. For now
 * it checks only the shape (a JSON object with Cube's top-level keys, each of the right JSON
 * type); the engine replaces this body to resolve members and operators against its model and
 * to return the normalised query. Keep the signature: WidgetService depends on nothing else.
 */
export function validateWidgetQuery(query: unknown, loc: Loc): WidgetQueryCheck {
  const issues: ValidationIssue[] = [];
  const push = (type: string, at: Loc, msg: string, input: unknown) => issues.push({ type, loc: at, msg, input });
  if (!isJsonObject(query)) {
    push('dict_type', loc, 'Input should be a valid dictionary', query);
    return { ok: false, issues };
  }
  const listOf = (key: string, item: 'string' | 'object') => {
    const value = query[key];
    if (!Array.isArray(value)) return push('list_type', [...loc, key], 'Input should be a valid list', value);
    value.forEach((element, i) => {
      if (item === 'string' && typeof element !== 'string') push('string_type', [...loc, key, i], 'Input should be a valid string', element);
      if (item === 'object' && !isJsonObject(element)) push('dict_type', [...loc, key, i], 'Input should be a valid dictionary', element);
    });
  };
  const count = (key: string) => {
    const value = query[key];
    if (typeof value !== 'number' || !Number.isInteger(value)) return push('int_type', [...loc, key], 'Input should be a valid integer', value);
    if (value < 0) issues.push({ type: 'greater_than_equal', loc: [...loc, key], msg: 'Input should be greater than or equal to 0', input: value, ctx: { ge: 0 } });
  };
  for (const [key, value] of Object.entries(query)) {
    if (!(KEYS as readonly string[]).includes(key)) push('extra_forbidden', [...loc, key], 'Extra inputs are not permitted', value);
  }
  if ('measures' in query) listOf('measures', 'string');
  if ('dimensions' in query) listOf('dimensions', 'string');
  if ('timeDimensions' in query) listOf('timeDimensions', 'object');
  if ('filters' in query) listOf('filters', 'object');
  if ('order' in query && !isJsonObject(query.order) && !Array.isArray(query.order)) {
    const reason = 'order must be an object or a list';
    issues.push({ type: 'value_error', loc: [...loc, 'order'], msg: `Value error, ${reason}`, input: query.order, ctx: { error: reason } });
  }
  if ('limit' in query) count('limit');
  if ('offset' in query) count('offset');
  if ('timezone' in query && typeof query.timezone !== 'string') push('string_type', [...loc, 'timezone'], 'Input should be a valid string', query.timezone);
  return issues.length ? { ok: false, issues } : { ok: true, query: query as WidgetQuery };
}
