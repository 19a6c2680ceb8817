import { currentTenant } from './api.js';
import { valueLabel } from './labels.js';

/** Money in integer cents, in the tenant's currency. */
export function money(cents) {
  if (cents === null || cents === undefined) return '—';
  const currency = currentTenant()?.currency ?? 'USD';
  return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(Number(cents) / 100);
}

/** A plain number with grouping. */
export const number = (value) => (value === null || value === undefined ? '—' : new Intl.NumberFormat().format(Number(value)));

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A time bucket as the API sends it (a wall-clock text in the query's timezone, `2026-03-01T00:00:00.000`),
 * read as text: no Date, so the browser's own zone never shifts it.
 */
export function bucket(text, granularity) {
  if (typeof text !== 'string' || text.length < 10) return String(text ?? '—');
  const [year, month, day] = [text.slice(0, 4), Number(text.slice(5, 7)), text.slice(8, 10)];
  if (granularity === 'year') return year;
  if (granularity === 'quarter') return `${year} Q${Math.floor((month - 1) / 3) + 1}`;
  if (granularity === 'month') return `${MONTHS[month - 1]} ${year}`;
  if (granularity === 'week') return `Week of ${text.slice(0, 10)}`;
  return text.slice(0, 10) + (granularity || text.slice(11, 19) === '00:00:00' ? '' : ` ${text.slice(11, 16)}`);
}

/**
 * A member's value for people: money from cents, counts with grouping, time buckets as dates, and coded
 * values by their labels when the member (`revenue.paymentMedium`) is given.
 */
export function memberValue(value, annotation, member) {
  if (!annotation) return value ?? '—';
  if (annotation.type === 'number') return annotation.meta?.unit === 'cents' ? money(value) : number(value);
  if (annotation.type === 'time') return bucket(value, annotation.granularity?.name);
  return member ? valueLabel(member, value) : value ?? '(none)';
}
