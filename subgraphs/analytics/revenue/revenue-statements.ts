import type { Statement } from '../query/read-only';
import { SqlParams } from '../query/sql-params';
import { RevenueBreakdownSortField, RevenueGroupBy, RevenueGroupSortField } from '../types/revenue-enums';
import type { RevenueFilter } from './revenue-filter';
import { localDateSql, REVENUE_RELATION, RevenueParams, revenueWhere } from './revenue-where';

/**
 * The SQL of the four 4.3 endpoints, built from validated filters only. Pure functions, so the
 * benchmark runs exactly these statements through `pg` as its floor.
 */

type Direction = 'asc' | 'desc';

/**
 * A group: the expression rows are grouped by, its key as text and its label. Locations and
 * providers group by id (names are snapshots and may differ after a rename) and are labelled by
 * name. Keys are formatted from the grouped value, once per group rather than once per row.
 */
function groupExpressions(p: RevenueParams, by: RevenueGroupBy): { group: string; key: string; label: string } {
  switch (by) {
    case RevenueGroupBy.location:
      return { group: 'location_id', key: 'location_id::text', label: 'max(location_name)' };
    case RevenueGroupBy.provider:
      return { group: 'provider_id', key: 'provider_id::text', label: 'max(provider_name)' };
    case RevenueGroupBy.item_category:
      return { group: 'item_category', key: 'item_category', label: 'item_category' };
    case RevenueGroupBy.payment_medium:
      return { group: 'payment_medium', key: 'payment_medium', label: 'payment_medium' };
    case RevenueGroupBy.created_date: {
      const day = `(created_at at time zone ${p.tz})::date`;
      return { group: day, key: `to_char(${day}, 'YYYY-MM-DD')`, label: `to_char(${day}, 'YYYY-MM-DD')` };
    }
  }
}

const AMOUNTS = `count(*) as count, coalesce(sum(gross_cents), 0) as gross, coalesce(sum(discount_cents), 0) as discount,
  coalesce(sum(net_cents), 0) as net, round(avg(net_cents)) as average`;

function start(tenantId: string, filter: RevenueFilter): { p: RevenueParams; where: string } {
  const p = new RevenueParams(new SqlParams(), filter.timezone);
  return { p, where: revenueWhere(p, tenantId, filter) };
}

/** `revenue-breakdown-groups`: each group's key, label and line count; the most recently active group first. */
export function groupsStatement(tenantId: string, filter: RevenueFilter, by: RevenueGroupBy): Statement {
  const { p, where } = start(tenantId, filter);
  const group = groupExpressions(p, by);
  const sql = `select ${group.key} as group_key, ${group.label} as group_label, count(*) as count, max(created_at) as last_at
    from ${REVENUE_RELATION} where ${where} group by ${group.group} order by last_at desc, group_key asc nulls last`;
  return { sql, params: p.params.values };
}

const GROUP_SORT: Record<RevenueGroupSortField, string> = {
  [RevenueGroupSortField.created_date]: 'last_at',
  [RevenueGroupSortField.group_label]: 'group_label',
  [RevenueGroupSortField.count]: 'count',
  [RevenueGroupSortField.gross_amount]: 'gross',
  [RevenueGroupSortField.discount_amount]: 'discount',
  [RevenueGroupSortField.net_amount]: 'net',
  [RevenueGroupSortField.average_net_amount]: 'average',
};

/** `revenue-breakdown-group-summaries`: the sums of every group, sorted by a whitelisted output column, then by key. */
export function groupSummariesStatement(tenantId: string, filter: RevenueFilter, by: RevenueGroupBy, sortBy: RevenueGroupSortField, direction: Direction): Statement {
  const { p, where } = start(tenantId, filter);
  const group = groupExpressions(p, by);
  const sql = `select ${group.key} as group_key, ${group.label} as group_label, ${AMOUNTS}, max(created_at) as last_at
    from ${REVENUE_RELATION} where ${where} group by ${group.group} order by ${GROUP_SORT[sortBy]} ${direction} nulls last, group_key asc nulls last`;
  return { sql, params: p.params.values };
}

/** `revenue-breakdown-summary`: one row over every filtered line. */
export function summaryStatement(tenantId: string, filter: RevenueFilter): Statement {
  const { p, where } = start(tenantId, filter);
  const sql = `select ${AMOUNTS}, count(*) filter (where source = 'charge_item') as charge_items,
    count(*) filter (where source = 'sold_package') as sold_packages, min(created_at) as first_at, max(created_at) as last_at
    from ${REVENUE_RELATION} where ${where}`;
  return { sql, params: p.params.values };
}

const LINE_SORT: Record<RevenueBreakdownSortField, string> = {
  [RevenueBreakdownSortField.created_date]: 'created_at',
  [RevenueBreakdownSortField.location]: 'location_name',
  [RevenueBreakdownSortField.provider]: 'provider_name',
  [RevenueBreakdownSortField.patient]: 'patient_name',
  [RevenueBreakdownSortField.item_category]: 'item_category',
  [RevenueBreakdownSortField.item_type]: 'item_type',
  [RevenueBreakdownSortField.item_name]: 'item_name',
  [RevenueBreakdownSortField.payment_medium]: 'payment_medium',
  [RevenueBreakdownSortField.gross_amount]: 'gross_cents',
  [RevenueBreakdownSortField.discount_amount]: 'discount_cents',
  [RevenueBreakdownSortField.net_amount]: 'net_cents',
};

/** `revenue-breakdown`: one page of lines; ties fall back to the time and then the id, so pages never overlap or skip. */
export function linesStatement(tenantId: string, filter: RevenueFilter, sortBy: RevenueBreakdownSortField, direction: Direction, page: { page: number; perPage: number }): Statement {
  const { p, where } = start(tenantId, filter);
  const column = LINE_SORT[sortBy];
  const order = column === 'created_at' ? `created_at ${direction}, id ${direction}` : `${column} ${direction} nulls last, created_at ${direction}, id ${direction}`;
  const sql = `select id, source, location_id, location_name, provider_id, provider_name, patient_id, patient_name, item_category, item_type,
      item_name, payment_medium, gross_cents, discount_cents, net_cents, comment, created_at, ${localDateSql(p)} as local_date
    from ${REVENUE_RELATION} where ${where} order by ${order}
    limit ${p.params.add(page.perPage)} offset ${p.params.add((page.page - 1) * page.perPage)}`;
  return { sql, params: p.params.values };
}

/** How many lines the filters select (the page envelope's `total`). */
export function countStatement(tenantId: string, filter: RevenueFilter): Statement {
  const { p, where } = start(tenantId, filter);
  return { sql: `select count(*) as count from ${REVENUE_RELATION} where ${where}`, params: p.params.values };
}
