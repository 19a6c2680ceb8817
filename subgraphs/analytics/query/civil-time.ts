import { isIsoDate } from '../../common/field-rules';

/**
 * Dates and times as analysts write them. A plain date or an offset-less date-time is a wall
 * clock reading in the query's time zone (as Cube reads `dateRange`); one with `Z` or an offset
 * is an instant. The arithmetic here is calendar-only (no zone), the zone is applied by
 * PostgreSQL (`timestamp at time zone`), so days across a DST change keep 23 or 25 hours.
 */

/** A bound as parsed: a calendar day, a wall-clock reading (`YYYY-MM-DDTHH:mm:ss.SSS`), or an instant (ISO 8601 with offset). */
export type TimeBound = { kind: 'date'; date: string } | { kind: 'local'; value: string } | { kind: 'instant'; value: string };

/** Calendar units a relative range counts in. */
export type CalendarUnit = 'day' | 'week' | 'month' | 'quarter' | 'year';

/** A real calendar date `YYYY-MM-DD` from year 1 on (PostgreSQL has no year 0; years past 9999 need more digits than the format has). */
export const isCalendarDate = (text: string): boolean => isIsoDate(text) && !text.startsWith('0000');

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Parses one absolute bound; null when it is neither a date nor an ISO 8601 date-time. */
export function parseBound(text: string): TimeBound | null {
  if (isCalendarDate(text)) return { kind: 'date', date: text };
  const match = DATE_TIME.exec(text);
  if (!match || !isCalendarDate(match[1])) return null;
  const [, date, hh, mm, ss = '00', fraction = '', offset] = match;
  if (Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) return null;
  if (offset) {
    // PostgreSQL takes displacements up to 15:59; real zones stay within +-14:00.
    const [oh, om = '00'] = offset.toUpperCase() === 'Z' ? ['00'] : [offset.slice(1, 3), offset.slice(-2)];
    if (Number(oh) > 15 || Number(om) > 59 || Number.isNaN(Date.parse(text.replace(' ', 'T')))) return null;
    return { kind: 'instant', value: text.replace(' ', 'T') };
  }
  return { kind: 'local', value: `${date}T${hh}:${mm}:${ss}.${fraction.padEnd(3, '0').slice(0, 3)}` };
}

/** The bound as the start of a range: a date is its first millisecond. */
export const startText = (bound: TimeBound): string => (bound.kind === 'date' ? `${bound.date}T00:00:00.000` : bound.value);

/** The bound as the (inclusive) end of a range: a date is its last millisecond, so the whole day counts. */
export const endText = (bound: TimeBound): string => (bound.kind === 'date' ? `${bound.date}T23:59:59.999` : bound.value);

/** True for text `startText`/`endText` made from an instant (it carries an offset). */
export const isInstantText = (text: string): boolean => /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i.test(text) && text.length > 19;

/** Today's date on the wall clocks of `timeZone`. */
export function todayIn(timeZone: string, now: Date): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

const toUtc = (date: string) => new Date(`${date}T00:00:00Z`);
const fromUtc = (d: Date) => d.toISOString().slice(0, 10);

/** Moves a calendar date by whole units; months, quarters and years move from the first of a month, so no day clamping is needed. */
function shift(date: string, unit: CalendarUnit, n: number): string {
  const d = toUtc(date);
  if (unit === 'day') d.setUTCDate(d.getUTCDate() + n);
  else if (unit === 'week') d.setUTCDate(d.getUTCDate() + 7 * n);
  else d.setUTCMonth(d.getUTCMonth() + n * (unit === 'year' ? 12 : unit === 'quarter' ? 3 : 1));
  return fromUtc(d);
}

/** First day of the unit holding `date`; weeks start on Monday (ISO 8601, as PostgreSQL's date_trunc). */
function startOf(date: string, unit: CalendarUnit): string {
  const d = toUtc(date);
  if (unit === 'week') d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  if (unit === 'month' || unit === 'quarter' || unit === 'year') d.setUTCDate(1);
  if (unit === 'quarter') d.setUTCMonth(d.getUTCMonth() - (d.getUTCMonth() % 3));
  if (unit === 'year') d.setUTCMonth(0);
  return fromUtc(d);
}

/** Last day of the unit holding `date`. */
const endOf = (date: string, unit: CalendarUnit): string => shift(shift(startOf(date, unit), unit, 1), 'day', -1);

const UNIT = '(day|week|month|quarter|year)';
const ONE = new RegExp(`^(this|last|next) ${UNIT}$`);
const MANY = new RegExp(`^(last|next) (\\d{1,4}) ${UNIT}s?$`);

/**
 * Resolves a relative range to inclusive calendar dates in `timeZone`: `today`, `yesterday`,
 * `tomorrow`, `this|last|next day|week|month|quarter|year`, and `last|next N units` (the N whole
 * units before, or after, the current one: `last 7 days` ends yesterday). Null when not one of these.
 */
export function resolveRelative(text: string, timeZone: string, now: Date): [string, string] | null {
  const range = relativeRange(text, timeZone, now);
  // `last 9999 years` leaves the calendar PostgreSQL and the date format can hold.
  return range && range.every(isCalendarDate) ? range : null;
}

function relativeRange(text: string, timeZone: string, now: Date): [string, string] | null {
  const phrase = text.trim().toLowerCase().replace(/\s+/g, ' ');
  const today = todayIn(timeZone, now);
  if (phrase === 'today') return [today, today];
  if (phrase === 'yesterday' || phrase === 'tomorrow') {
    const day = shift(today, 'day', phrase === 'yesterday' ? -1 : 1);
    return [day, day];
  }
  const one = ONE.exec(phrase);
  if (one) {
    const unit = one[2] as CalendarUnit;
    const anchor = shift(startOf(today, unit), unit, one[1] === 'last' ? -1 : one[1] === 'next' ? 1 : 0);
    return [anchor, endOf(anchor, unit)];
  }
  const many = MANY.exec(phrase);
  if (many) {
    const n = Number(many[2]);
    const unit = many[3] as CalendarUnit;
    if (n < 1) return null;
    const current = startOf(today, unit);
    if (many[1] === 'last') return [shift(current, unit, -n), shift(current, 'day', -1)];
    return [shift(current, unit, 1), endOf(shift(current, unit, n), unit)];
  }
  return null;
}
