// Time buckets as the API sends them: wall-clock texts in the query's time zone (`2026-03-01T00:00:00.000`).
// Arithmetic here is on the calendar date of the text (Date.UTC only as a day counter), so the browser's
// own zone and its DST changes never move a bucket. Weeks start on Monday, as the server's date_trunc.

/** The granularities a time series is filled for (the query model's). */
export const GRANULARITIES = ['day', 'week', 'month', 'quarter', 'year'];

// Far more buckets than a chart can show: a range longer than this is drawn from its data only.
const MAX_BUCKETS = 4000;
const pad = (n, width = 2) => String(n).padStart(width, '0');

/** `YYYY-MM-DD` of a calendar day given as year, month (1-12) and day, which may overflow (Date.UTC normalises them). */
function day(year, month, date) {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, date);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

const parts = (text) => [Number(text.slice(0, 4)), Number(text.slice(5, 7)), Number(text.slice(8, 10))];
const asBucket = (date) => `${date}T00:00:00.000`;

/** The first bucket of `granularity` that holds the wall-clock text (or date) `text`. */
export function bucketStart(text, granularity) {
  const [year, month, date] = parts(text);
  if (granularity === 'week') {
    const d = new Date(0);
    d.setUTCFullYear(year, month - 1, date);
    return asBucket(day(year, month, date - ((d.getUTCDay() + 6) % 7)));
  }
  if (granularity === 'month') return asBucket(day(year, month, 1));
  if (granularity === 'quarter') return asBucket(day(year, month - ((month - 1) % 3), 1));
  if (granularity === 'year') return asBucket(day(year, 1, 1));
  return asBucket(day(year, month, date));
}

/** The bucket after `text` (a bucket's first moment). */
export function nextBucket(text, granularity) {
  const [year, month, date] = parts(text);
  if (granularity === 'week') return asBucket(day(year, month, date + 7));
  if (granularity === 'month') return asBucket(day(year, month + 1, 1));
  if (granularity === 'quarter') return asBucket(day(year, month + 3, 1));
  if (granularity === 'year') return asBucket(day(year + 1, 1, 1));
  return asBucket(day(year, month, date + 1));
}

/** The first and last calendar days (`YYYY-MM-DD`) of the bucket of `granularity` holding `text`. */
export function bucketDays(text, granularity) {
  const first = bucketStart(text, granularity);
  const [year, month, date] = parts(nextBucket(first, granularity));
  return [first.slice(0, 10), day(year, month, date - 1)];
}

/** Today's date (`YYYY-MM-DD`) on the wall clocks of `timeZone`; null for a zone the browser does not know. */
export function todayIn(timeZone, now = new Date()) {
  try {
    const fields = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now).map((p) => [p.type, p.value]));
    return `${fields.year}-${fields.month}-${fields.day}`;
  } catch {
    return null;
  }
}

// A bound without an offset is a wall-clock reading in the query's zone; one with an offset is an instant, not used here.
const WALL_CLOCK = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/;

/**
 * The span a time series should cover, from the answer's query: its explicit `[from, to]` dateRange for the
 * time dimension `member` (the API sends relative ranges resolved), the end no later than today in the
 * query's zone, so "this year" by month has no months of zeros still to come. Null without such a range.
 */
export function queryRange(query, member, now = new Date()) {
  const entry = (query?.timeDimensions ?? []).find((t) => t.dimension === member && Array.isArray(t.dateRange)) ?? null;
  const [from, to] = entry?.dateRange ?? [];
  if (typeof from !== 'string' || typeof to !== 'string' || !WALL_CLOCK.test(from) || !WALL_CLOCK.test(to)) return null;
  const today = query.timezone ? todayIn(query.timezone, now) : null;
  return { from, to: today && `${today}T23:59:59.999` < to ? `${today}T23:59:59.999` : to };
}

function run(first, last, granularity) {
  const out = [];
  for (let at = bucketStart(first, granularity); at <= last; at = nextBucket(at, granularity)) {
    if (out.length >= MAX_BUCKETS) return null;
    out.push(at);
  }
  return out;
}

/**
 * Every bucket of `granularity` from the first to the last of `present` (wall-clock texts), widened to
 * `range` ({from, to}) when given, in date order; the present ones always included. Texts that are not
 * times (null) are left out: the caller keeps them apart.
 */
export function bucketRun(present, granularity, range = null) {
  const sorted = [...new Set(present.filter((t) => typeof t === 'string' && t.length >= 10))].sort();
  if (!GRANULARITIES.includes(granularity) || (!sorted.length && !range)) return sorted;
  const first = range && (!sorted.length || range.from < sorted[0]) ? range.from : sorted[0];
  const last = range && (!sorted.length || range.to > sorted.at(-1)) ? range.to : sorted.at(-1);
  const all = run(first, last, granularity) ?? (sorted.length ? run(sorted[0], sorted.at(-1), granularity) : null);
  if (!all) return sorted;
  const known = new Set(all);
  return sorted.some((t) => !known.has(t)) ? [...new Set([...all, ...sorted])].sort() : all;
}

/** True for a measure that is an average: where no lines are, it has no value (null), where a count or sum is 0. */
export function isAverage(member, annotation) {
  return /(^|\s)(average|avg|mean)/i.test(`${String(member ?? '').split('.').pop()} ${annotation?.shortTitle ?? ''}`);
}
