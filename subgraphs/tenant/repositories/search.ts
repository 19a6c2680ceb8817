import { escapeLike } from '../../common/field-rules';

/** Words a search may hold; more are ignored so one request cannot build an unbounded query. */
const MAX_WORDS = 5;

/**
 * A MikroORM condition for free-text search: every word must match (ILIKE, literally) at least
 * one of the fields, so "ada love" finds Ada Lovelace. Null when the search is blank.
 */
export function searchCondition(search: string | null | undefined, fields: string[]): Record<string, unknown> | null {
  const words = (search ?? '').trim().split(/\s+/).filter(Boolean).slice(0, MAX_WORDS);
  if (words.length === 0) return null;
  return { $and: words.map((word) => ({ $or: fields.map((field) => ({ [field]: { $ilike: `%${escapeLike(word)}%` } })) })) };
}
