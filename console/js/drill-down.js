// Drill-down: a clicked bar, slice or point of a dashboard widget becomes the revenue explorer's
// view of the lines behind it (revenue-link.js). What the mark stands for (its members), the widget's
// own `equals` filters, the dashboard's location, the widget's time zone and its effective date range
// all go into the explorer's filters; whatever has no explorer filter is listed, never silently dropped.
import { resolveDateRange } from './date-range.js';
import { bucketDays } from './time-series.js';

/** Which explorer filter (a list of revenue-link.js's LIST_KEYS) a member's value goes to. */
export const MEMBER_FILTERS = {
  location: 'locationNames',
  locationId: 'locationIds',
  provider: 'providerNames',
  providerId: 'providerIds',
  patient: 'patientNames',
  patientId: 'patientIds',
  itemCategory: 'itemCategories',
  itemType: 'itemTypes',
  itemName: 'itemNames',
  paymentMedium: 'paymentMediums',
};

const GRAINS = ['day', 'week', 'month', 'quarter', 'year'];
const later = (a, b) => (a > b ? a : b);
const earlier = (a, b) => (a < b ? a : b);
const filterOf = (member) => (member.startsWith('revenue.') ? MEMBER_FILTERS[member.slice('revenue.'.length)] ?? null : null);

/** Adds a value to one of the view's list filters, once. */
const add = (view, key, value) => (view[key] = [...new Set([...(view[key] ?? []), String(value)])]);

/**
 * The explorer view for a picked mark: `{ view, unmapped }`, where `unmapped` names in words each part
 * of the widget's query or of the mark that the explorer cannot filter by (the caller tells the person).
 *
 * - `members`: what charts.js's onPick reports (`{ 'revenue.provider': 'Dr. Ada', 'revenue.createdAt.month': '2026-03-01T00:00:00.000' }`);
 * - `query`: the widget's query as the engine ran it (the answer's `query`: the dashboard's range and
 *   location in it, a relative range such as "this quarter" resolved to dates by the server);
 * - `timeZone`: the widget's zone.
 */
export function drillDownView(members, query, timeZone) {
  const view = { timezone: timeZone };
  const unmapped = [];
  let [start, end] = [null, null];
  const narrow = ([from, to]) => ([start, end] = [start ? later(start, from) : from, end ? earlier(end, to) : to]);

  // The date range the widget's answer covers: its (first) time dimension's, as the engine resolved it.
  const time = (query.timeDimensions ?? []).find((t) => t.dateRange !== undefined);
  if (time) {
    const range = resolveDateRange(time.dateRange);
    if (range) narrow(range);
    else unmapped.push(`the date range “${time.dateRange}”`);
  }

  for (const [member, value] of Object.entries(members)) {
    const grain = GRAINS.find((g) => member.endsWith(`.${g}`) && member.split('.').length === 3);
    if (grain) {
      // A time bucket: from its first to its last day (the bucket's label is its start, in the widget's zone).
      const day = typeof value === 'string' ? value.slice(0, 10) : '';
      if (/^\d{4}-\d{2}-\d{2}$/.test(day)) narrow(bucketDays(day, grain));
      else unmapped.push(`the ${grain} picked`);
      continue;
    }
    const key = filterOf(member);
    if (key && value !== null && value !== undefined) add(view, key, value);
    else unmapped.push(value === null || value === undefined ? `“(none)” for ${member}` : `${member} = ${value}`);
  }

  for (const filter of query.filters ?? []) {
    const key = filter && typeof filter.member === 'string' ? filterOf(filter.member) : null;
    if (key && filter.operator === 'equals' && Array.isArray(filter.values)) {
      // Picked and filtered on the same member: the picked value is within the filter's already.
      if (!view[key]) filter.values.forEach((v) => add(view, key, v));
    } else unmapped.push(describeFilter(filter));
  }

  if (start) view.startDate = start;
  if (end) view.endDate = end;
  return { view, unmapped };
}

/** A filter in words, for the notice that the explorer cannot apply it. */
function describeFilter(filter) {
  if (!filter || typeof filter !== 'object') return 'a filter';
  if ('and' in filter || 'or' in filter) return 'an and/or filter group';
  const values = Array.isArray(filter.values) ? ` ${filter.values.join(', ')}` : '';
  return `the filter ${filter.member ?? filter.dimension} ${filter.operator}${values}`;
}
