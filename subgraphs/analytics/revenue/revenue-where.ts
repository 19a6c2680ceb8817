import { escapeLike } from '../../common/field-rules';
import { storedId, storedIds } from '../../../platform/ids';
import { lowerBoundSql, type SqlParams, upperBoundSql, type ZoneRef } from '../query/sql-params';
import { RevenueGroupBy } from '../types/revenue-enums';
import { LIST_FILTERS, type GroupCondition, type ListFilter, type RevenueFilter } from './revenue-filter';

/** The one relation the breakdown reads: billing's reporting view, never its tables (docs/decisions.md, Data ownership). */
export const REVENUE_RELATION = 'billing.revenue_line';

/** A statement's parameters and its time zone, whose placeholder is added only once something uses it. */
export class RevenueParams {
  /** The time zone's placeholder, on demand. */
  readonly zone: ZoneRef;

  constructor(readonly params: SqlParams, timezone: string) {
    this.zone = params.shared(timezone);
  }

  /** The placeholder of the request's time zone. */
  get tz(): string {
    return this.zone();
  }
}

const UUID_COLUMNS = new Set(['location_id', 'provider_id', 'patient_id']);

/** Ids compare as uuids (values that are no UUIDs match nothing); names and categories exactly but case-insensitively. */
export function listSql(p: RevenueParams, key: ListFilter, values: string[]): string {
  const column = LIST_FILTERS[key];
  if (UUID_COLUMNS.has(column)) {
    const ids = storedIds(values);
    return ids.length ? `${column} = any(${p.params.add(ids)}::uuid[])` : 'false';
  }
  return `lower(${column}) = any(${p.params.add(values.map((v) => v.toLowerCase()))}::text[])`;
}

/** The calendar day of a line in the request's zone, as `created_date` groups it. */
export const localDateSql = (p: RevenueParams): string => `to_char(created_at at time zone ${p.tz}, 'YYYY-MM-DD')`;

/** Membership of one group; a created_date day is a half-open range of instants, so DST days keep their 23 or 25 hours. */
export function groupSql(p: RevenueParams, group: GroupCondition): string {
  const uuidKey = (column: string) => {
    if (group.key === null) return `${column} is null`;
    const id = storedId(group.key);
    return id ? `${column} = ${p.params.add(id)}::uuid` : 'false';
  };
  switch (group.by) {
    case RevenueGroupBy.LOCATION:
      return uuidKey('location_id');
    case RevenueGroupBy.PROVIDER:
      return uuidKey('provider_id');
    case RevenueGroupBy.ITEM_CATEGORY:
      return group.key === null ? 'item_category is null' : `item_category = ${p.params.add(group.key)}`;
    case RevenueGroupBy.PAYMENT_MEDIUM:
      return group.key === null ? 'payment_medium is null' : `payment_medium = ${p.params.add(group.key)}`;
    case RevenueGroupBy.CREATED_DATE: {
      const day = p.params.add(group.key);
      return `created_at >= (${day}::date::timestamp at time zone ${p.tz}) and created_at < ((${day}::date + 1)::timestamp at time zone ${p.tz})`;
    }
  }
}

/** The WHERE clause of every 4.3 statement: `tenant_id = $1` first, then the request's filters, all bound. */
export function revenueWhere(p: RevenueParams, tenantId: string, filter: RevenueFilter): string {
  const where = [`tenant_id = ${p.params.add(tenantId)}`];
  if (filter.start) where.push(lowerBoundSql(p.params, 'created_at', filter.start, p.zone));
  if (filter.end) where.push(upperBoundSql(p.params, 'created_at', filter.end, p.zone));
  for (const [key, values] of Object.entries(filter.lists) as [ListFilter, string[]][]) where.push(listSql(p, key, values));
  if (filter.minNet !== undefined) where.push(`net_cents >= ${p.params.add(filter.minNet)}::numeric`);
  if (filter.maxNet !== undefined) where.push(`net_cents <= ${p.params.add(filter.maxNet)}::numeric`);
  if (filter.comment !== undefined) where.push(`comment ilike ${p.params.add(`%${escapeLike(filter.comment)}%`)}`);
  for (const group of filter.groups) where.push(groupSql(p, group));
  return where.join(' and ');
}
