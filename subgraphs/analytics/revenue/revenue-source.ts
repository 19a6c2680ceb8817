import { coveringRollup } from '../rollups/catalogue';
import { ROLLUP_AGGREGATES, rollupRelation } from '../rollups/rollup-relation';
import { lowerBoundValue, SqlParams, upperBoundExclusiveValue } from '../query/sql-params';
import { RevenueGroupBy } from '../types/revenue-enums';
import { LIST_FILTERS, type ListFilter, type RevenueFilter } from './revenue-filter';
import { groupSql, listSql, REVENUE_RELATION, RevenueParams, revenueWhere } from './revenue-where';

/**
 * What a 4.3 statement aggregates: the filtered lines, or a rollup relation that holds the same
 * figures (rollups/rollup-relation.ts). Statements read only these members, so both give
 * identical answers.
 */
export interface RevenueSource {
  p: RevenueParams;
  /** The FROM clause's relation and its WHERE, e.g. `billing.revenue_line where ...`. */
  from: string;
  /** The timestamptz column time grouping reads. */
  time: string;
  count: string;
  sum(column: string): string;
  average(column: string): string;
  first: string;
  last: string;
  /** Lines of each source. */
  chargeItems: string;
  soldPackages: string;
  /** `lines`, or the rollup's name (for the benchmark's report). */
  via: string;
}

/** The filtered lines of `billing.revenue_line`. */
export function linesSource(tenantId: string, filter: RevenueFilter): RevenueSource {
  const p = new RevenueParams(new SqlParams(), filter.timezone);
  return {
    p,
    from: `${REVENUE_RELATION} where ${revenueWhere(p, tenantId, filter)}`,
    time: 'created_at',
    count: 'count(*)',
    sum: (column) => `coalesce(sum(${column}), 0)`,
    average: (column) => `round(avg(${column}))`,
    first: 'min(created_at)',
    last: 'max(created_at)',
    chargeItems: `count(*) filter (where source = 'charge_item')`,
    soldPackages: `count(*) filter (where source = 'sold_package')`,
    via: 'lines',
  };
}

/** Columns of the rollup key a group_by reads. */
const GROUP_COLUMNS: Record<RevenueGroupBy, string[]> = {
  [RevenueGroupBy.LOCATION]: ['location_id', 'location_name'],
  [RevenueGroupBy.PROVIDER]: ['provider_id', 'provider_name'],
  [RevenueGroupBy.ITEM_CATEGORY]: ['item_category'],
  [RevenueGroupBy.PAYMENT_MEDIUM]: ['payment_medium'],
  [RevenueGroupBy.CREATED_DATE]: [],
};

/**
 * The smallest rollup that answers the filters (and the grouping), or null. Amount and comment
 * filters look inside lines, and patient, item type and item name are in no rollup: those read lines.
 */
export function rollupSource(tenantId: string, filter: RevenueFilter, groupBy?: RevenueGroupBy): RevenueSource | null {
  if (filter.minNet !== undefined || filter.maxNet !== undefined || filter.comment !== undefined) return null;
  const columns = [...(groupBy ? GROUP_COLUMNS[groupBy] : [])];
  for (const key of Object.keys(filter.lists) as ListFilter[]) columns.push(LIST_FILTERS[key]);
  for (const group of filter.groups) columns.push(...GROUP_COLUMNS[group.by].slice(0, 1));
  const view = coveringRollup(columns);
  if (!view) return null;

  const p = new RevenueParams(new SqlParams(), filter.timezone);
  const tenant = p.params.add(tenantId);
  const lower: string[] = [];
  const upper: string[] = [];
  if (filter.start) lower.push(lowerBoundValue(p.params, filter.start, p.zone));
  if (filter.end) upper.push(upperBoundExclusiveValue(p.params, filter.end, p.zone));
  const where: string[] = [];
  for (const [key, values] of Object.entries(filter.lists) as [ListFilter, string[]][]) where.push(listSql(p, key, values));
  for (const group of filter.groups) {
    if (group.by !== RevenueGroupBy.CREATED_DATE) {
      where.push(groupSql(p, group));
      continue;
    }
    // A day is a range of instants (groupSql's, as bounds).
    const day = p.params.add(group.key);
    lower.push(`(${day}::date::timestamp at time zone ${p.tz})`);
    upper.push(`((${day}::date + 1)::timestamp at time zone ${p.tz})`);
  }
  const granularities = groupBy === RevenueGroupBy.CREATED_DATE ? [`'day'`] : [];
  const from = rollupRelation({ params: p.params, tenant, view, lower, upper, where, granularities, tz: p.zone });
  return { p, from, time: 't', ...ROLLUP_AGGREGATES, via: view.name };
}

/** The rollup when one answers, else the lines. */
export function revenueSource(tenantId: string, filter: RevenueFilter, groupBy?: RevenueGroupBy, rollups = true): RevenueSource {
  return (rollups && rollupSource(tenantId, filter, groupBy)) || linesSource(tenantId, filter);
}
