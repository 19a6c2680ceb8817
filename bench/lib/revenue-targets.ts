import { isDeepStrictEqual } from 'node:util';
import type { Pool } from 'pg';
import { buildQuery, shapeRow } from '../../subgraphs/analytics/query/build-query';
import { parseQuery } from '../../subgraphs/analytics/query/parse-query';
import { QueryIssues } from '../../subgraphs/analytics/query/query-issues';
import type { Statement } from '../../subgraphs/analytics/query/read-only';
import { parseRevenueFilter } from '../../subgraphs/analytics/revenue/revenue-filter';
import { countStatement, groupsStatement, groupSummariesStatement, lineKeys, linesStatement, summaryStatement } from '../../subgraphs/analytics/revenue/revenue-statements';
import { RevenueBreakdownSortField, RevenueGroupBy, RevenueGroupSortField } from '../../subgraphs/analytics/types/revenue-enums';
import type { BenchTenant } from './tenant';

/**
 * What a target measures: `rollup`, an aggregate the app answers from a rollup, against the same
 * figures computed from the lines (the raw-line SQL floor: issue 21 wants it 10x faster); `lines`,
 * a request the rollups cannot answer, against its own SQL (within 1.5x); `page`, the page of
 * lines (raw) with its total (from a rollup).
 */
export type TargetKind = 'rollup' | 'lines' | 'page';

/** One measured endpoint: its HTTP request, the raw-line SQL straight through `pg` (the floor), and how to tell that both agree. */
export interface RevenueTarget {
  name: string;
  kind: TargetKind;
  /** The request, for the report. */
  request: string;
  /** Answers the parsed body, or throws with the status (a 422 is counted by the caller). */
  app(): Promise<unknown>;
  floor(): Promise<Record<string, unknown>[][]>;
  /** The floor's statements (raw lines). */
  statements: Statement[];
  /** The statements the app runs, and what each reads (`lines` or a rollup's name). */
  appStatements: (Statement & { via: string })[];
  /** True when the app's answer holds the floor's figures. */
  agrees(app: any, floor: Record<string, unknown>[][]): boolean;
}

/** An HTTP answer that was not a 200; `status` lets the caller count 422s ("query too expensive"). */
export class HttpStatusError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const BREAKDOWN = '/analytics/dashboards/product-sales-breakdown';
const num = (v: unknown) => Number(v);

/**
 * The targets over one year of the tenant's lines in `timezone`: the four 4.3 endpoints and one
 * execute-query (month x net, count) on their rollups, the page of lines, and a summary and an
 * execute-query over a quarter that only lines can answer (an amount filter; the item type).
 */
export function revenueTargets(baseUrl: string, tenant: BenchTenant, pool: Pool, year: { start: string; end: string }, timezone: string): RevenueTarget[] {
  const args = { timezone, startDate: year.start, endDate: year.end };
  const filter = parseRevenueFilter(args, new QueryIssues());
  // Lines-only requests read a quarter: over a year at 10M lines they run into the 5 s statement timeout on a busy machine.
  const quarter = { start: new Date(Date.parse(`${year.end}T00:00:00Z`) - 89 * 86_400_000).toISOString().slice(0, 10), end: year.end };
  const quarterArgs = { timezone, startDate: quarter.start, endDate: quarter.end };
  const amountFilter = parseRevenueFilter({ ...quarterArgs, minNetCents: 0 }, new QueryIssues());
  const monthly = { measures: ['revenue.netAmount', 'revenue.count'], timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'month', dateRange: [year.start, year.end] }], timezone };
  const byType = {
    measures: ['revenue.netAmount', 'revenue.count'],
    timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'week', dateRange: [quarter.start, quarter.end] }],
    dimensions: ['revenue.itemType'],
    timezone,
  };
  const built = (query: object, rollups: boolean) => {
    const parsed = parseQuery(query, ['query'], { now: new Date(), requireMembers: true });
    if (!parsed.ok) throw new Error(`the benchmark's query is invalid: ${JSON.stringify(parsed.issues)}`);
    return buildQuery(parsed.query, tenant.tenantId, rollups);
  };

  const search = (extra: Record<string, string>, range = year) => new URLSearchParams({ timezone, start_date: range.start, end_date: range.end, ...extra }).toString();
  const answer = async (res: Response, what: string) => {
    const text = await res.text();
    if (res.status !== 200) throw new HttpStatusError(res.status, `${what} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text);
  };
  const get = (path: string) => async () => answer(await fetch(`${baseUrl}${path}`, { headers: tenant.headers }), `GET ${path}`);
  const post = (query: object) => async () =>
    answer(await fetch(`${baseUrl}/analytics/widgets/execute-query`, { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json' }, body: JSON.stringify(query) }), 'execute-query');
  const floor = (statements: Statement[]) => async () => {
    const results: Record<string, unknown>[][] = [];
    for (const statement of statements) results.push((await pool.query(statement.sql, statement.params)).rows);
    return results;
  };
  const target = (name: string, kind: TargetKind, path: string, statements: Statement[], appStatements: RevenueTarget['appStatements'], agrees: RevenueTarget['agrees']): RevenueTarget => ({
    name, kind, request: `GET ${path.replace(/start_date=[^&]+&end_date=[^&]+/, 'start_date=…&end_date=…')}`, app: get(path), floor: floor(statements), statements, appStatements, agrees,
  });
  const query = (name: string, kind: TargetKind, body: object): RevenueTarget => {
    const [raw, app] = [built(body, false), built(body, true)];
    return {
      name, kind, request: `POST /analytics/widgets/execute-query ${JSON.stringify(body).replace(/"dateRange":\[[^\]]+\]/, '"dateRange":[…]')}`,
      app: post(body), floor: floor([raw]), statements: [raw], appStatements: [app],
      agrees: (answer, [rows]) => isDeepStrictEqual(answer.data, rows.map((row) => shapeRow(row, raw.columns))),
    };
  };

  const summaryAgrees: RevenueTarget['agrees'] = (app, [[row]]) => app.count === num(row.count) && app.netAmount === num(row.net) && app.averageNetAmount === num(row.average);
  const groupSummaries = (rollups: boolean) => groupSummariesStatement(tenant.tenantId, filter, RevenueGroupBy.PAYMENT_MEDIUM, RevenueGroupSortField.CREATED_DATE, 'desc', rollups);
  const lines = linesStatement(tenant.tenantId, filter, lineKeys(RevenueBreakdownSortField.CREATED_DATE, 'desc'), { conditions: [], reverse: false, offset: 0, limit: 20 });
  return [
    target('summary', 'rollup', `${BREAKDOWN}/revenue-breakdown-summary?${search({})}`, [summaryStatement(tenant.tenantId, filter)], [summaryStatement(tenant.tenantId, filter, true)], summaryAgrees),
    target('groups', 'rollup', `${BREAKDOWN}/revenue-breakdown-groups?${search({ group_by: 'location' })}`, [groupsStatement(tenant.tenantId, filter, RevenueGroupBy.LOCATION)],
      [groupsStatement(tenant.tenantId, filter, RevenueGroupBy.LOCATION, true)], (app, [rows]) =>
        isDeepStrictEqual(app.map((g: any) => [g.groupKey, g.groupLabel, g.totalCount]), rows.map((r) => [r.group_key, r.group_label, num(r.count)]))),
    target('group-summaries', 'rollup', `${BREAKDOWN}/revenue-breakdown-group-summaries?${search({ group_by: 'payment_medium' })}`, [groupSummaries(false)], [groupSummaries(true)], (app, [rows]) =>
      isDeepStrictEqual(app.map((g: any) => [g.groupKey, g.count, g.netAmount, g.averageNetAmount]), rows.map((r) => [r.group_key, num(r.count), num(r.net), num(r.average)]))),
    query('execute-query (month × net, count)', 'rollup', monthly),
    target('breakdown (page 1 of 20)', 'page', `${BREAKDOWN}/revenue-breakdown?${search({})}`, [lines, countStatement(tenant.tenantId, filter)], [{ ...lines, via: 'lines' }, countStatement(tenant.tenantId, filter, true)],
      (app, [rows, [total]]) => app.total === num(total.count) && isDeepStrictEqual(app.items.map((i: any) => i.id), rows.map((r) => r.id))),
    target('summary, min_net_amount=0, a quarter (lines)', 'lines', `${BREAKDOWN}/revenue-breakdown-summary?${search({ min_net_amount: '0' }, quarter)}`, [summaryStatement(tenant.tenantId, amountFilter)],
      [summaryStatement(tenant.tenantId, amountFilter, true)], summaryAgrees),
    query('execute-query, week × item type, a quarter (lines)', 'lines', byType),
  ];
}
