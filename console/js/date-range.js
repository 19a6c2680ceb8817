// A dashboard-wide date range: presets in the query engine's words (docs/api.md, Query rules), a
// custom from/to, or each widget's own range. Dates are calendar text (`YYYY-MM-DD`) in a widget's
// time zone; the calendar arithmetic is time-series.js's, on that text, so no browser zone slips in.

import { todayIn } from './time-series.js';

/** The presets offered, as [URL value, label]; '' is "each widget's own" (the default, absent from the URL). */
export const RANGE_PRESETS = [
  ['', 'Each widget’s own'],
  ['today', 'Today'],
  ['last 7 days', 'Last 7 days'],
  ['last 30 days', 'Last 30 days'],
  ['last 90 days', 'Last 90 days'],
  ['this month', 'This month'],
  ['this quarter', 'This quarter'],
  ['year to date', 'Year to date'],
  ['custom', 'Custom dates…'],
];

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The range a dashboard URL names (`range`, and `from`/`to` for custom), or null for each widget's own. */
export function readRange(params) {
  const range = params.get('range') ?? '';
  if (range === 'custom') {
    const from = params.get('from') ?? '';
    const to = params.get('to') ?? '';
    return DATE.test(from) && DATE.test(to) ? { preset: 'custom', from, to } : null;
  }
  return RANGE_PRESETS.some(([value]) => value && value === range) ? { preset: range } : null;
}

/** Writes `range` into URL parameters (removing what a previous range left). */
export function writeRange(params, range) {
  for (const key of ['range', 'from', 'to']) params.delete(key);
  if (!range) return params;
  params.set('range', range.preset);
  if (range.preset === 'custom') params.set('from', range.from), params.set('to', range.to);
  return params;
}

/** What a range is sent to the query engine as, for a widget in `timeZone`: a phrase it knows, or explicit dates. */
export function dateRangeFor(range, timeZone, now = new Date()) {
  if (range.preset === 'custom') return [range.from, range.to];
  // The engine has no "year to date": the year's first day to today, both in the widget's zone.
  if (range.preset === 'year to date') {
    const today = todayIn(timeZone, now);
    return [`${today.slice(0, 4)}-01-01`, today];
  }
  return range.preset;
}

/**
 * The widget's query with the dashboard's range in place of its own: every time dimension gets
 * `dateRange`; a query with none gets `<cube>.createdAt` with the range and no grain (a filter only).
 */
export function withRange(query, range, timeZone, now = new Date()) {
  if (!range) return query;
  const dateRange = dateRangeFor(range, timeZone, now);
  const times = query.timeDimensions ?? [];
  if (times.length) return { ...query, timeDimensions: times.map((t) => ({ ...t, dateRange })) };
  const first = [...(query.measures ?? []), ...(query.dimensions ?? [])][0] ?? 'revenue.count';
  return { ...query, timeDimensions: [{ dimension: `${first.split('.')[0]}.createdAt`, dateRange }] };
}

/**
 * A time dimension's explicit `dateRange` as inclusive dates ([from, to]); null for none, or for a
 * phrase: relative ranges are the query engine's to resolve (subgraphs/analytics/query/civil-time.ts),
 * and an answer's `query` carries them resolved.
 */
export function resolveDateRange(dateRange) {
  if (!Array.isArray(dateRange)) return null;
  const [from, to = from] = dateRange.map((d) => String(d).slice(0, 10));
  return DATE.test(from) && DATE.test(to) ? [from, to] : null;
}
