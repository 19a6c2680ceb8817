import type { IssueLoc } from '../../common/field-rules';
import { canonicalTimeZone, TIME_ZONE_REASON } from '../../common/time-zone';
import { endText, isCalendarDate, isInstantText, parseBound, startText } from '../query/civil-time';
import { QueryIssues } from '../query/query-issues';
import type { RevenueBreakdownArgs, RevenueFilterArgs } from '../types/revenue-breakdown.args';
import { RevenueGroupBy } from '../types/revenue-enums';

/** A group a line must belong to: a group_by with its key; a null key is the group of lines without one (no provider). */
export interface GroupCondition {
  by: RevenueGroupBy;
  key: string | null;
}

/** The filters of a 4.3 request, validated: what revenue-where.ts turns into SQL. */
export interface RevenueFilter {
  timezone: string;
  /** Inclusive bound texts (civil-time.ts): wall-clock in `timezone`, or instants. */
  start?: string;
  end?: string;
  lists: Partial<Record<ListFilter, string[]>>;
  minNet?: number;
  maxNet?: number;
  comment?: string;
  /** group_key and the row-level group filters of the detail endpoint, all of which must hold. */
  groups: GroupCondition[];
}

/** The list parameters and the column each compares. */
export const LIST_FILTERS = {
  locationIds: 'location_id',
  locationNames: 'location_name',
  providerIds: 'provider_id',
  providerNames: 'provider_name',
  patientIds: 'patient_id',
  patientNames: 'patient_name',
  itemCategories: 'item_category',
  itemTypes: 'item_type',
  itemNames: 'item_name',
  paymentMediums: 'payment_medium',
} as const;
/** One of the list parameters. */
export type ListFilter = keyof typeof LIST_FILTERS;

const MAX_LIST = 1_000;
const MAX_TEXT = 1_000;
const DATE_REASON = 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time';

type AmountArgs = { minNetCents?: number | null; maxNetCents?: number | null };

/**
 * Validates the common filters. Issue locations are the GraphQL argument names (the REST bridge
 * turns them into `["query", "<snake_case>"]`), reported in the order of the contract's table.
 */
export function parseRevenueFilter(args: RevenueFilterArgs & AmountArgs, issues: QueryIssues, before: (issues: QueryIssues) => void = () => {}): RevenueFilter {
  before(issues);
  const timezone = canonicalTimeZone(args.timezone);
  if (!timezone) issues.value(['timezone'], TIME_ZONE_REASON, args.timezone);
  const bound = (loc: IssueLoc, value: string | null | undefined, end: boolean) => {
    if (value == null) return undefined;
    const parsed = parseBound(value.trim());
    if (!parsed) return issues.reject(loc, DATE_REASON, value);
    return end ? endText(parsed) : startText(parsed);
  };
  const start = bound(['startDate'], args.startDate, false);
  const end = bound(['endDate'], args.endDate, true);
  if (start && end && !isInstantText(start) && !isInstantText(end) && start > end) issues.value(['endDate'], 'end_date is before start_date', args.endDate);
  const lists: RevenueFilter['lists'] = {};
  for (const key of Object.keys(LIST_FILTERS) as ListFilter[]) {
    const values = args[key];
    if (values == null) continue;
    if (values.length > MAX_LIST) issues.tooLong([key], MAX_LIST, values);
    else lists[key] = values;
  }
  const { minNetCents: min, maxNetCents: max } = args;
  if (min != null && max != null && max < min) issues.value(['maxNetCents'], 'max_net_amount is below min_net_amount', max);
  if (args.comment != null && args.comment.length > MAX_TEXT) issues.value(['comment'], `comment must be at most ${MAX_TEXT} characters`, args.comment);
  return { timezone: timezone ?? 'UTC', start, end, lists, minNet: min ?? undefined, maxNet: max ?? undefined, comment: args.comment || undefined, groups: [] };
}

/** A group key as a condition: '' selects the null group; a created_date key must be a calendar date. */
function groupCondition(issues: QueryIssues, loc: IssueLoc, by: RevenueGroupBy, key: string): GroupCondition | undefined {
  if (by === RevenueGroupBy.CREATED_DATE && !isCalendarDate(key)) return issues.reject(loc, 'must be a date (YYYY-MM-DD)', key);
  return { by, key: key === '' ? null : key };
}

/** The detail endpoint's filters: the common ones, group_key (with its group_by) and the row-level group filters. */
export function parseBreakdownFilter(args: RevenueBreakdownArgs, issues: QueryIssues): RevenueFilter {
  let group: GroupCondition | undefined;
  const filter = parseRevenueFilter(args, issues, () => {
    if (args.groupKey == null) return;
    if (!args.groupBy) issues.value(['groupKey'], 'group_key needs group_by, which names what the key is', args.groupKey);
    else group = groupCondition(issues, ['groupKey'], args.groupBy, args.groupKey);
  });
  if (group) filter.groups.push(group);
  const rowFilters: [keyof RevenueBreakdownArgs, RevenueGroupBy][] = [
    ['itemCategory', RevenueGroupBy.ITEM_CATEGORY],
    ['location', RevenueGroupBy.LOCATION],
    ['provider', RevenueGroupBy.PROVIDER],
    ['paymentMedium', RevenueGroupBy.PAYMENT_MEDIUM],
    ['createdDate', RevenueGroupBy.CREATED_DATE],
  ];
  for (const [arg, by] of rowFilters) {
    const value = args[arg];
    if (typeof value !== 'string') continue;
    const condition = groupCondition(issues, [arg], by, value);
    if (condition) filter.groups.push(condition);
  }
  return filter;
}
