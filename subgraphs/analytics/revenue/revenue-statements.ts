import type { Statement } from '../query/read-only';
import { RevenueBreakdownSortField, RevenueGroupBy, RevenueGroupSortField } from '../types/revenue-enums';
import type { RevenueFilter } from './revenue-filter';
import { linesSource, revenueSource, type RevenueSource } from './revenue-source';
import { localDateSql } from './revenue-where';
import { sqlCondition, sqlOrder, type SliceQuery } from '../../common/keyset';
import type { SortKey } from '../../common/list-window';

/**
 * The SQL of the four 4.3 endpoints, built from validated filters only. Pure functions, so the
 * benchmark runs exactly these statements through `pg` as its floor. With `rollups` (the service
 * sets it; the floor does not) aggregates read the smallest rollup that answers, else the lines;
 * the page of lines always reads lines.
 */

type Direction = 'asc' | 'desc';

/**
 * A group: the expression rows are grouped by, its key as text and its label. Locations and
 * providers group by id (names are snapshots and may differ after a rename) and are labelled by
 * name. Keys are formatted from the grouped value, once per group rather than once per row.
 */
function groupExpressions(source: RevenueSource, by: RevenueGroupBy): { group: string; key: string; label: string } {
  switch (by) {
    case RevenueGroupBy.LOCATION:
      return { group: 'location_id', key: 'location_id::text', label: 'max(location_name)' };
    case RevenueGroupBy.PROVIDER:
      return { group: 'provider_id', key: 'provider_id::text', label: 'max(provider_name)' };
    case RevenueGroupBy.ITEM_CATEGORY:
      return { group: 'item_category', key: 'item_category', label: 'item_category' };
    case RevenueGroupBy.PAYMENT_MEDIUM:
      return { group: 'payment_medium', key: 'payment_medium', label: 'payment_medium' };
    case RevenueGroupBy.CREATED_DATE: {
      const day = `(${source.time} at time zone ${source.p.tz})::date`;
      return { group: day, key: `to_char(${day}, 'YYYY-MM-DD')`, label: `to_char(${day}, 'YYYY-MM-DD')` };
    }
  }
}

const amounts = (s: RevenueSource) => `${s.count} as count, ${s.sum('gross_cents')} as gross, ${s.sum('discount_cents')} as discount,
  ${s.sum('net_cents')} as net, ${s.average('net_cents')} as average`;

/** A statement with its source's name, for the benchmark's report. */
export interface RevenueStatement extends Statement {
  via: string;
}

const made = (sql: string, source: RevenueSource): RevenueStatement => ({ sql, params: source.p.params.values, via: source.via, small: source.via !== 'lines' });

/**
 * The most groups the two group lists answer: bounded lists, not connections (docs/api.md,
 * "Pagination"). Enough for five years of days; a longer span grouped by day is cut at the bound.
 */
export const MAX_REVENUE_GROUPS = 2000;

/** `revenue-breakdown-groups`: each group's key, label and line count; the most recently active group first. */
export function groupsStatement(tenantId: string, filter: RevenueFilter, by: RevenueGroupBy, rollups = false): RevenueStatement {
  const source = revenueSource(tenantId, filter, by, rollups);
  const group = groupExpressions(source, by);
  const sql = `select ${group.key} as group_key, ${group.label} as group_label, ${source.count} as count, ${source.last} as last_at
    from ${source.from} group by ${group.group} order by last_at desc, group_key asc nulls last limit ${MAX_REVENUE_GROUPS}`;
  return made(sql, source);
}

const GROUP_SORT: Record<RevenueGroupSortField, string> = {
  [RevenueGroupSortField.CREATED_DATE]: 'last_at',
  [RevenueGroupSortField.GROUP_LABEL]: 'group_label',
  [RevenueGroupSortField.COUNT]: 'count',
  [RevenueGroupSortField.GROSS_AMOUNT]: 'gross',
  [RevenueGroupSortField.DISCOUNT_AMOUNT]: 'discount',
  [RevenueGroupSortField.NET_AMOUNT]: 'net',
  [RevenueGroupSortField.AVERAGE_NET_AMOUNT]: 'average',
};

/** `revenue-breakdown-group-summaries`: the sums of every group, sorted by a whitelisted output column, then by key. */
export function groupSummariesStatement(
  tenantId: string, filter: RevenueFilter, by: RevenueGroupBy, sortBy: RevenueGroupSortField, direction: Direction, rollups = false,
): RevenueStatement {
  const source = revenueSource(tenantId, filter, by, rollups);
  const group = groupExpressions(source, by);
  const sql = `select ${group.key} as group_key, ${group.label} as group_label, ${amounts(source)}, ${source.last} as last_at
    from ${source.from} group by ${group.group} order by ${GROUP_SORT[sortBy]} ${direction} nulls last, group_key asc nulls last limit ${MAX_REVENUE_GROUPS}`;
  return made(sql, source);
}

/** `revenue-breakdown-summary`: one row over every filtered line. */
export function summaryStatement(tenantId: string, filter: RevenueFilter, rollups = false): RevenueStatement {
  const source = revenueSource(tenantId, filter, undefined, rollups);
  const sql = `select ${amounts(source)}, ${source.chargeItems} as charge_items, ${source.soldPackages} as sold_packages, ${source.first} as first_at, ${source.last} as last_at
    from ${source.from}`;
  return made(sql, source);
}

const LINE_SORT: Record<RevenueBreakdownSortField, string> = {
  [RevenueBreakdownSortField.CREATED_DATE]: 'created_at',
  [RevenueBreakdownSortField.LOCATION]: 'location_name',
  [RevenueBreakdownSortField.PROVIDER]: 'provider_name',
  [RevenueBreakdownSortField.PATIENT]: 'patient_name',
  [RevenueBreakdownSortField.ITEM_CATEGORY]: 'item_category',
  [RevenueBreakdownSortField.ITEM_TYPE]: 'item_type',
  [RevenueBreakdownSortField.ITEM_NAME]: 'item_name',
  [RevenueBreakdownSortField.PAYMENT_MEDIUM]: 'payment_medium',
  [RevenueBreakdownSortField.GROSS_AMOUNT]: 'gross_cents',
  [RevenueBreakdownSortField.DISCOUNT_AMOUNT]: 'discount_cents',
  [RevenueBreakdownSortField.NET_AMOUNT]: 'net_cents',
};

const AMOUNT_COLUMNS: ReadonlySet<string> = new Set(['gross_cents', 'discount_cents', 'net_cents']);

/**
 * The order of the lines (their cursors' keys): the sort column (NULLs last either way), then the
 * time, then the id, so windows never overlap or skip. The time is read to the microsecond
 * (`created_at_key`): the lines' tables fill it with now().
 */
export function lineKeys(sortBy: RevenueBreakdownSortField, direction: Direction): SortKey<Record<string, unknown>>[] {
  const column = LINE_SORT[sortBy];
  const time: SortKey<Record<string, unknown>>[] = [
    { field: 'created_at', direction, kind: 'instant', value: (row) => row.created_at_key },
    { field: 'id', direction, kind: 'uuid', value: (row) => row.id },
  ];
  if (column === 'created_at') return time;
  const amount = AMOUNT_COLUMNS.has(column);
  return [{ field: column, direction, kind: amount ? 'number' : 'text', nullable: true, nullsLast: true, value: (row) => (row[column] == null ? null : amount ? Number(row[column]) : row[column]) }, ...time];
}

/** `revenue-breakdown`: one window of lines (`lineKeys` order, keyset conditions and offset of `window`). */
export function linesStatement(tenantId: string, filter: RevenueFilter, keys: SortKey<Record<string, unknown>>[], window: SliceQuery): Statement {
  const source = linesSource(tenantId, filter);
  const p = source.p;
  const keyset = window.conditions.map((term) => ` and ${sqlCondition(term, (value) => p.params.add(value))}`).join('');
  const sql = `select id, source, location_id, location_name, provider_id, provider_name, patient_id, patient_name, item_category, item_type,
      item_name, payment_medium, gross_cents, discount_cents, net_cents, comment, created_at, ${localDateSql(p)} as local_date,
      to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at_key
    from ${source.from}${keyset} order by ${sqlOrder(keys as SortKey<never>[], window.reverse)}
    limit ${p.params.add(window.limit)} offset ${p.params.add(window.offset)}`;
  return { sql, params: p.params.values };
}

/** How many lines the filters select (the page envelope's `total`). */
export function countStatement(tenantId: string, filter: RevenueFilter, rollups = false): RevenueStatement {
  const source = revenueSource(tenantId, filter, undefined, rollups);
  return made(`select ${source.count} as count from ${source.from}`, source);
}
