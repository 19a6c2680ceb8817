import type { ValidationIssue } from '../../../schema/errors';
import type { IssueLoc } from '../../common/field-rules';
import { canonicalTimeZone, TIME_ZONE_REASON } from '../../common/time-zone';
import { isJsonObject } from '../services/input-rules';
import { endText, parseBound, resolveRelative, startText } from './civil-time';
import { QUERY_LIMITS } from './limits';
import { DIMENSION_NAMES, GRANULARITIES, MEASURE_NAMES, resolveMember, type Granularity } from './model';
import { parseFilters } from './parse-filters';
import { QueryIssues, stringList } from './query-issues';
import type { Direction, NormalizedQuery, TimeDimensionQuery } from './query-types';

/** Top-level keys of a query, in the order their problems are reported (Cube's REST query format). */
const KEYS = ['measures', 'dimensions', 'timeDimensions', 'filters', 'order', 'limit', 'offset', 'timezone'] as const;

/** The outcome of parsing: the normalised query, or every problem found under `loc`. */
export type QueryParse = { ok: true; query: NormalizedQuery } | { ok: false; issues: ValidationIssue[] };

/** How strict to be: a saved widget may still be a draft with nothing selected; an executed query may not. */
export interface ParseOptions {
  /** "Now", for relative date ranges. */
  now: Date;
  /** Refuse a query that selects nothing. */
  requireMembers: boolean;
}

const RANGE_REASON = "dateRange must be [from, to] (dates or ISO 8601 date-times) or a relative range such as 'last 7 days' or 'this month'";

/** Members of one kind, de-duplicated; unknown ones (and ones of the other kind) are named in the issue. */
function members(issues: QueryIssues, loc: IssueLoc, raw: unknown, kind: 'measure' | 'dimension'): string[] | undefined {
  const names = stringList(issues, loc, raw, QUERY_LIMITS.maxMembers);
  if (!names) return undefined;
  const known = kind === 'measure' ? MEASURE_NAMES : DIMENSION_NAMES;
  let ok = true;
  names.forEach((name, i) => {
    const member = resolveMember(name);
    if (member?.kind === kind) return;
    ok = false;
    const reason = member ? `'${name}' is a ${member.kind}, not a ${kind}` : `unknown ${kind} '${name}'; ${kind}s: ${known.join(', ')}`;
    issues.value([...loc, i], reason, name);
  });
  return ok ? [...new Set(names)] : undefined;
}

/** A `dateRange`: `[from, to]`, one date, `from X to Y`, or a relative phrase; resolved to inclusive bound texts. */
function dateRange(issues: QueryIssues, loc: IssueLoc, raw: unknown, timezone: string, now: Date): [string, string] | undefined {
  let pair: unknown[];
  if (typeof raw === 'string') {
    const relative = resolveRelative(raw, timezone, now);
    if (relative) return [startText({ kind: 'date', date: relative[0] }), endText({ kind: 'date', date: relative[1] })];
    const fromTo = /^\s*from\s+(.+?)\s+to\s+(.+?)\s*$/i.exec(raw);
    pair = fromTo ? [fromTo[1], fromTo[2]] : [raw, raw];
  } else if (Array.isArray(raw) && raw.length === 2) pair = raw;
  else return issues.reject(loc, RANGE_REASON, raw);
  const [from, to] = pair.map((text) => (typeof text === 'string' ? parseBound(text.trim()) : null));
  if (!from || !to) return issues.reject(loc, RANGE_REASON, raw);
  const bounds: [string, string] = [startText(from), endText(to)];
  // Same-kind texts compare as times; a range mixing wall-clock and instant bounds is left to the database.
  if (from.kind !== 'instant' && to.kind !== 'instant' && bounds[0] > bounds[1]) return issues.reject(loc, 'dateRange starts after it ends', raw);
  return bounds;
}

/** `timeDimensions`: `{dimension, granularity?, dateRange?}` entries over time dimensions only. */
function timeDimensions(issues: QueryIssues, loc: IssueLoc, raw: unknown, timezone: string, now: Date): TimeDimensionQuery[] | undefined {
  if (!Array.isArray(raw)) return issues.type('list_type', loc, raw);
  if (raw.length > QUERY_LIMITS.maxMembers) return issues.tooLong(loc, QUERY_LIMITS.maxMembers, raw);
  const out: TimeDimensionQuery[] = [];
  const before = issues.all.length;
  raw.forEach((entry, i) => {
    const at = [...loc, i];
    if (!isJsonObject(entry)) return issues.type('dict_type', at, entry);
    for (const [key, value] of Object.entries(entry)) if (!['dimension', 'granularity', 'dateRange'].includes(key)) issues.type('extra_forbidden', [...at, key], value);
    const name = entry.dimension;
    const result: TimeDimensionQuery = { dimension: String(name) };
    if (name === undefined) issues.type('missing', [...at, 'dimension'], entry);
    else if (typeof name !== 'string') issues.type('string_type', [...at, 'dimension'], name);
    else {
      const member = resolveMember(name);
      if (!member) issues.value([...at, 'dimension'], `unknown time dimension '${name}'`, name);
      else if (member.kind !== 'dimension' || member.def.type !== 'time') issues.value([...at, 'dimension'], `'${name}' is not a time dimension`, name);
    }
    const granularity = entry.granularity;
    if (granularity !== undefined && granularity !== null) {
      if (!(GRANULARITIES as readonly unknown[]).includes(granularity)) issues.enumeration([...at, 'granularity'], GRANULARITIES, granularity);
      else result.granularity = granularity as Granularity;
    }
    if (entry.dateRange !== undefined && entry.dateRange !== null) {
      const range = dateRange(issues, [...at, 'dateRange'], entry.dateRange, timezone, now);
      if (range) result.dateRange = range;
    }
    out.push(result);
  });
  return issues.all.length === before ? out : undefined;
}

/** `order`: `{member: dir}` (key order kept) or `[[member, dir], ...]`; only members the query can sort by. */
function order(issues: QueryIssues, loc: IssueLoc, raw: unknown, sortable: Set<string>): [string, Direction][] | undefined {
  const entries: [unknown, unknown, IssueLoc][] = [];
  if (isJsonObject(raw)) for (const [member, dir] of Object.entries(raw)) entries.push([member, dir, [...loc, member]]);
  else if (Array.isArray(raw)) {
    raw.forEach((pair, i) => {
      if (Array.isArray(pair) && pair.length === 2) entries.push([pair[0], pair[1], [...loc, i]]);
      else issues.value([...loc, i], 'an order entry must be a [member, direction] pair', pair);
    });
  } else return issues.reject(loc, 'order must be an object or a list', raw);
  const out: [string, Direction][] = [];
  const before = issues.all.length;
  for (const [member, dir, at] of entries) {
    if (typeof member !== 'string') issues.type('string_type', at, member);
    else if (!resolveMember(member)) issues.value(at, `unknown member '${member}'`, member);
    else if (!sortable.has(member)) issues.value(at, `cannot order by '${member}': order by a measure, or by a dimension the query selects`, member);
    if (dir !== 'asc' && dir !== 'desc') issues.enumeration(at, ['asc', 'desc'], dir);
    else if (typeof member === 'string') out.push([member, dir]);
  }
  return issues.all.length === before ? out : undefined;
}

/** A whole number in [min, max], Pydantic's int and range errors otherwise. */
function count(issues: QueryIssues, loc: IssueLoc, raw: unknown, min: number, max: number): number | undefined {
  if (typeof raw !== 'number' || !Number.isInteger(raw)) return issues.type('int_type', loc, raw);
  if (raw < min) issues.add({ type: 'greater_than_equal', loc, msg: `Input should be greater than or equal to ${min}`, input: raw, ctx: { ge: min } });
  else if (raw > max) issues.add({ type: 'less_than_equal', loc, msg: `Input should be less than or equal to ${max}`, input: raw, ctx: { le: max } });
  else return raw;
  return undefined;
}

/** Cube's default order: the first grouped time dimension ascending, else the first measure descending, else the first dimension ascending. */
function defaultOrder(query: Pick<NormalizedQuery, 'measures' | 'dimensions' | 'timeDimensions'>): [string, Direction][] {
  const time = query.timeDimensions.find((t) => t.granularity);
  if (time) return [[time.dimension, 'asc']];
  if (query.measures.length) return [[query.measures[0], 'desc']];
  return query.dimensions.length ? [[query.dimensions[0], 'asc']] : [];
}

/**
 * Validates and normalises a query in Cube's REST format against the model. Problems are
 * reported under `loc` in Pydantic's style, all at once, in the order of the query's keys.
 */
export function parseQuery(raw: unknown, loc: IssueLoc, options: ParseOptions): QueryParse {
  const issues = new QueryIssues();
  if (!isJsonObject(raw)) {
    issues.type('dict_type', loc, raw);
    return { ok: false, issues: issues.all };
  }
  for (const [key, value] of Object.entries(raw)) if (!(KEYS as readonly string[]).includes(key)) issues.type('extra_forbidden', [...loc, key], value);
  const timezone = typeof raw.timezone === 'string' ? canonicalTimeZone(raw.timezone) : 'UTC';
  const zone = timezone ?? 'UTC';
  const at = (key: string) => [...loc, key];
  const measures = 'measures' in raw ? members(issues, at('measures'), raw.measures, 'measure') : [];
  const dimensions = 'dimensions' in raw ? members(issues, at('dimensions'), raw.dimensions, 'dimension') : [];
  const times = 'timeDimensions' in raw ? timeDimensions(issues, at('timeDimensions'), raw.timeDimensions, zone, options.now) : [];
  const filters = 'filters' in raw ? parseFilters(issues, at('filters'), raw.filters) : [];
  const sortable = new Set([...MEASURE_NAMES, ...(dimensions ?? []), ...(times ?? []).filter((t) => t.granularity).map((t) => t.dimension)]);
  const sorted = 'order' in raw ? order(issues, at('order'), raw.order, sortable) : undefined;
  const limit = 'limit' in raw ? count(issues, at('limit'), raw.limit, 1, QUERY_LIMITS.maxLimit) : QUERY_LIMITS.defaultLimit;
  const offset = 'offset' in raw ? count(issues, at('offset'), raw.offset, 0, Number.MAX_SAFE_INTEGER) : 0;
  if ('timezone' in raw && typeof raw.timezone !== 'string') issues.type('string_type', at('timezone'), raw.timezone);
  else if (timezone === null) issues.value(at('timezone'), TIME_ZONE_REASON, raw.timezone);
  if (issues.all.length) return { ok: false, issues: issues.all };
  const selected = { measures: measures!, dimensions: dimensions!, timeDimensions: times! };
  if (options.requireMembers && !selected.measures.length && !selected.dimensions.length && !selected.timeDimensions.some((t) => t.granularity)) {
    issues.value(loc, 'the query selects nothing: give it measures, dimensions or a time dimension with a granularity', raw);
    return { ok: false, issues: issues.all };
  }
  return {
    ok: true,
    query: { ...selected, filters: filters!, order: sorted ?? defaultOrder(selected), limit: limit!, offset: offset!, timezone: timezone! },
  };
}
