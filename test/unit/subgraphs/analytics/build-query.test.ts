import { buildQuery } from '../../../../subgraphs/analytics/query/build-query';
import { parseQuery } from '../../../../subgraphs/analytics/query/parse-query';
import type { NormalizedQuery } from '../../../../subgraphs/analytics/query/query-types';
import { parseRevenueFilter } from '../../../../subgraphs/analytics/revenue/revenue-filter';
import { groupsStatement, lineKeys, linesStatement, summaryStatement } from '../../../../subgraphs/analytics/revenue/revenue-statements';
import { QueryIssues } from '../../../../subgraphs/analytics/query/query-issues';
import { RevenueBreakdownSortField, RevenueGroupBy } from '../../../../subgraphs/analytics/types/revenue-enums';

const TENANT = '3f0e4c8a-2b1d-4a7e-9c55-0d6f1e2a3b4c';
const HOSTILE = "'; drop table billing.charge_items; --";
// As an ILIKE pattern: `_` and `%` escaped so they match themselves.
const HOSTILE_PATTERN = "%'; drop table billing.charge\\_items; --%";

function normalised(query: unknown): NormalizedQuery {
  const result = parseQuery(query, ['query'], { now: new Date('2026-04-15T12:00:00Z'), requireMembers: true });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.query;
}

describe('SQL generation: identifiers from the model, values bound, always the tenant', () => {
  it('builds one grouped SELECT over billing.revenue_line scoped by tenant_id = $1', () => {
    const built = buildQuery(normalised({
      measures: ['revenue.netAmount', 'revenue.averageNet'],
      dimensions: ['revenue.providerId'],
      timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'month', dateRange: 'this year' }],
      filters: [{ member: 'revenue.netAmount', operator: 'gte', values: ['100'] }],
      timezone: 'America/Chicago',
      limit: 10,
    }), TENANT);
    expect(built.sql).toMatch(/^select provider_id as "c0", to_char\(date_trunc\(\$2, created_at at time zone \$3\), 'YYYY-MM-DD"T"HH24:MI:SS\.MS'\) as "c1", coalesce\(sum\(net_cents\), 0\) as "c2", round\(avg\(net_cents\)\) as "c3" from billing\.revenue_line where tenant_id = \$1 and /);
    expect(built.sql).toContain('group by 1, date_trunc($2, created_at at time zone $3) having coalesce(sum(net_cents), 0) >= $6::numeric order by "c1" asc, "c0" asc limit $7 offset $8');
    expect(built.params).toEqual([TENANT, 'month', 'America/Chicago', '2026-01-01T00:00:00.000', '2026-12-31T23:59:59.999', '100', 10, 0]);
    expect(built.columns.map((c) => c.keys)).toEqual([['revenue.providerId'], ['revenue.createdAt.month', 'revenue.createdAt'], ['revenue.netAmount'], ['revenue.averageNet']]);
  });

  it('keeps hostile values out of the SQL text, and ids that are no UUIDs out of uuid comparisons', () => {
    const built = buildQuery(normalised({
      measures: ['revenue.count'],
      filters: [
        { member: 'revenue.location', operator: 'equals', values: [HOSTILE] },
        { member: 'revenue.itemName', operator: 'contains', values: [HOSTILE, '50%_off'] },
        { member: 'revenue.locationId', operator: 'equals', values: [HOSTILE] },
        { member: 'revenue.patientId', operator: 'notEquals', values: ['F0E4C8A2-2B1D-4A7E-9C55-0D6F1E2A3B4C'] },
      ],
    }), TENANT);
    expect(built.sql).not.toContain('drop');
    expect(built.sql).toBe(
      'select count(*) as "c0" from billing.revenue_line where tenant_id = $1 and location_name = any($2::text[]) and item_name ilike any($3::text[]) ' +
        'and false and (patient_id is null or patient_id <> all($4::uuid[])) order by "c0" desc limit $5 offset $6',
    );
    expect(built.params).toEqual([TENANT, [HOSTILE], [HOSTILE_PATTERN, '%50\\%\\_off%'], ['f0e4c8a2-2b1d-4a7e-9c55-0d6f1e2a3b4c'], 1000, 0]);
    // No time member, no time zone parameter: PostgreSQL refuses a parameter the statement never uses.
    expect(buildQuery(normalised({ measures: ['revenue.count'], dimensions: ['revenue.location'], timezone: 'Asia/Tokyo' }), TENANT).params).toEqual([TENANT, 1000, 0]);
  });

  it('the revenue statements bind every filter too, and add the time zone only where used', () => {
    const issues = new QueryIssues();
    const filter = parseRevenueFilter({ timezone: 'utc', locationNames: [HOSTILE], comment: HOSTILE, startDate: '2026-01-01T00:00:00Z', minNetCents: 10 }, issues);
    expect(issues.list).toEqual([]);
    const summary = summaryStatement(TENANT, filter);
    expect(summary.sql).not.toContain('drop');
    expect(summary.sql).toContain('where tenant_id = $1 and created_at >= $2::timestamptz and lower(location_name) = any($3::text[]) and net_cents >= $4::numeric and comment ilike $5');
    expect(summary.params).toEqual([TENANT, '2026-01-01T00:00:00Z', [HOSTILE.toLowerCase()], 10, HOSTILE_PATTERN]);
    const groups = groupsStatement(TENANT, { ...filter, start: undefined }, RevenueGroupBy.CREATED_DATE);
    expect(groups.sql).toContain("select to_char((created_at at time zone $5)::date, 'YYYY-MM-DD') as group_key");
    expect(groups.sql).toContain('group by (created_at at time zone $5)::date order by last_at desc');
    expect(groups.params[4]).toBe('UTC');
    const keys = lineKeys(RevenueBreakdownSortField.NET_AMOUNT, 'asc');
    const lines = linesStatement(TENANT, filter, keys, { conditions: [], reverse: false, offset: 40, limit: 21 });
    expect(lines.sql).toMatch(/order by net_cents asc nulls last, created_at asc, id asc\s+limit \$7 offset \$8$/);
    expect(lines.params.slice(-2)).toEqual([21, 40]);
  });
});
