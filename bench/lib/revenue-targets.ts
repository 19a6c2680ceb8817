import { isDeepStrictEqual } from 'node:util';
import type { Pool } from 'pg';
import { buildQuery, shapeRow } from '../../subgraphs/analytics/query/build-query';
import { parseQuery } from '../../subgraphs/analytics/query/parse-query';
import { QueryIssues } from '../../subgraphs/analytics/query/query-issues';
import type { Statement } from '../../subgraphs/analytics/query/read-only';
import { parseRevenueFilter } from '../../subgraphs/analytics/revenue/revenue-filter';
import { countStatement, groupsStatement, groupSummariesStatement, linesStatement, summaryStatement } from '../../subgraphs/analytics/revenue/revenue-statements';
import { RevenueBreakdownSortField, RevenueGroupBy, RevenueGroupSortField } from '../../subgraphs/analytics/types/revenue-enums';
import type { BenchTenant } from './tenant';

/** One measured endpoint: its HTTP request, the same SQL straight through `pg` (the floor), and how to tell that both agree. */
export interface RevenueTarget {
  name: string;
  /** The request, for the report. */
  request: string;
  app(): Promise<unknown>;
  floor(): Promise<Record<string, unknown>[][]>;
  statements: Statement[];
  /** True when the app's answer holds the floor's figures. */
  agrees(app: any, floor: Record<string, unknown>[][]): boolean;
}

const BREAKDOWN = '/analytics/dashboards/product-sales-breakdown';
const num = (v: unknown) => Number(v);

/** The five targets over one year of the tenant's lines in `timezone`: the four 4.3 endpoints and one execute-query. */
export function revenueTargets(baseUrl: string, tenant: BenchTenant, pool: Pool, year: { start: string; end: string }, timezone: string): RevenueTarget[] {
  const args = { timezone, startDate: year.start, endDate: year.end };
  const filter = parseRevenueFilter(args, new QueryIssues());
  const query = { measures: ['revenue.netAmount', 'revenue.count'], timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'month', dateRange: [year.start, year.end] }], timezone };
  const parsed = parseQuery(query, ['query'], { now: new Date(), requireMembers: true });
  if (!parsed.ok) throw new Error(`the benchmark's query is invalid: ${JSON.stringify(parsed.issues)}`);
  const built = buildQuery(parsed.query, tenant.tenantId);

  const search = (extra: Record<string, string>) => new URLSearchParams({ timezone, start_date: year.start, end_date: year.end, ...extra }).toString();
  const get = (path: string) => async () => {
    const res = await fetch(`${baseUrl}${path}`, { headers: tenant.headers });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text);
  };
  const floor = (statements: Statement[]) => async () => {
    const results: Record<string, unknown>[][] = [];
    for (const statement of statements) results.push((await pool.query(statement.sql, statement.params)).rows);
    return results;
  };
  const target = (name: string, path: string, statements: Statement[], agrees: RevenueTarget['agrees']): RevenueTarget => ({
    name, request: `GET ${path.replace(/start_date=[^&]+&end_date=[^&]+/, 'start_date=…&end_date=…')}`, app: get(path), floor: floor(statements), statements, agrees,
  });

  const summary = summaryStatement(tenant.tenantId, filter);
  const groups = groupsStatement(tenant.tenantId, filter, RevenueGroupBy.location);
  const summaries = groupSummariesStatement(tenant.tenantId, filter, RevenueGroupBy.payment_medium, RevenueGroupSortField.created_date, 'desc');
  const lines = linesStatement(tenant.tenantId, filter, RevenueBreakdownSortField.created_date, 'desc', { page: 1, perPage: 20 });
  const count = countStatement(tenant.tenantId, filter);
  return [
    target('summary', `${BREAKDOWN}/revenue-breakdown-summary?${search({})}`, [summary], (app, [[row]]) => app.count === num(row.count) && app.netAmount === num(row.net)),
    target('groups', `${BREAKDOWN}/revenue-breakdown-groups?${search({ group_by: 'location' })}`, [groups], (app, [rows]) =>
      isDeepStrictEqual(app.map((g: any) => [g.groupKey, g.totalCount]), rows.map((r) => [r.group_key, num(r.count)]))),
    target('group-summaries', `${BREAKDOWN}/revenue-breakdown-group-summaries?${search({ group_by: 'payment_medium' })}`, [summaries], (app, [rows]) =>
      isDeepStrictEqual(app.map((g: any) => [g.groupKey, g.netAmount]), rows.map((r) => [r.group_key, num(r.net)]))),
    target('breakdown (page 1 of 20)', `${BREAKDOWN}/revenue-breakdown?${search({})}`, [lines, count], (app, [rows, [total]]) =>
      app.total === num(total.count) && isDeepStrictEqual(app.items.map((i: any) => i.id), rows.map((r) => r.id))),
    {
      name: 'execute-query (month × net, count)',
      request: 'POST /analytics/widgets/execute-query',
      async app() {
        const res = await fetch(`${baseUrl}/analytics/widgets/execute-query`, { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json' }, body: JSON.stringify(query) });
        const text = await res.text();
        if (res.status !== 200) throw new Error(`execute-query answered ${res.status}: ${text.slice(0, 300)}`);
        return JSON.parse(text);
      },
      floor: floor([built]),
      statements: [built],
      agrees: (app, [rows]) => isDeepStrictEqual(app.data, rows.map((row) => shapeRow(row, built.columns))),
    },
  ];
}
