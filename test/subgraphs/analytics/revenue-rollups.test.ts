import { randomUUID } from 'node:crypto';
import { offsetCursor } from '../../../schema/list-cursor';
import fc from 'fast-check';
import { Client } from 'pg';
import { analyticsSubgraph } from '../../../subgraphs/analytics';
import { buildQuery } from '../../../subgraphs/analytics/query/build-query';
import { parseQuery } from '../../../subgraphs/analytics/query/parse-query';
import { QueryIssues } from '../../../subgraphs/analytics/query/query-issues';
import { RevenueBreakdownService } from '../../../subgraphs/analytics/revenue/revenue-breakdown.service';
import { parseRevenueFilter } from '../../../subgraphs/analytics/revenue/revenue-filter';
import { summaryStatement } from '../../../subgraphs/analytics/revenue/revenue-statements';
import { AnalyticsQueryService } from '../../../subgraphs/analytics/services/analytics-query.service';
import { RevenueBreakdownSortField, RevenueGroupBy, RevenueGroupSortField } from '../../../subgraphs/analytics/types/revenue-enums';
import { SortDirection } from '../../../subgraphs/common/pagination';
import { startSubgraph, type RunningSubgraph } from '../../../platform/subgraph-runtime';
import { lineDirectory, writeLines, type LineDirectory } from './rollup-lines';
import { TenantScope } from '../../../platform/tenant-scope';
import { RequestAudit } from '../../../platform/audit/request-audit';

/** The services' audit trail, off: these tests compare figures (test/platform/audit covers the records). */
const NO_AUDIT = new RequestAudit(null, null);

/**
 * The rollup path against the lines (issue 21, part 3): for random filters, groupings, time zones
 * and ranges, every aggregate endpoint answers exactly what reading the lines answers. The lines
 * span US, EU, Lord Howe (half-hour DST) and Chatham (UTC+12:45/+13:45) DST changes; zones include
 * half- and quarter-hour offsets, whose local days begin inside a UTC hour.
 */

const ZONES = ['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/St_Johns'];
const FROM = new Date('2026-03-03T00:00:00Z');
const TO = new Date('2026-04-10T00:00:00Z');
const ROLLUP_COLUMNS: Record<string, string[]> = {
  total: ['source'],
  location: ['location_id', 'location_name'],
  provider: ['provider_id', 'provider_name'],
  item_category: ['item_category'],
  payment_medium: ['payment_medium'],
};

/** A range bound as analysts send them: a date, a wall-clock date-time (minutes on and off the quarter hours), or an instant. */
const bound = fc.oneof(
  fc.integer({ min: 0, max: 38 }).map((d) => new Date(FROM.getTime() + d * 86_400_000).toISOString().slice(0, 10)),
  fc.tuple(fc.integer({ min: 0, max: 38 }), fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45, 7)).map(([d, h, m]) =>
    `${new Date(FROM.getTime() + d * 86_400_000).toISOString().slice(0, 10)}T${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:00`),
  fc.tuple(fc.integer({ min: 0, max: 38 * 96 }), fc.constantFrom('Z', '+05:30', '-03:00')).map(([q, offset]) => new Date(FROM.getTime() + q * 900_000).toISOString().slice(0, 19) + offset),
);

describe('revenue rollups answer exactly what the lines answer (real PostgreSQL, property-based)', () => {
  let subgraph: RunningSubgraph;
  let db: Client;
  let dir: LineDirectory;
  const tenantId = randomUUID();
  beforeAll(async () => {
    subgraph = await startSubgraph(analyticsSubgraph, process.env.DATABASE_URL!, { migrate: false });
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    dir = lineDirectory();
    await writeLines(db, tenantId, dir, 21, 1200, FROM, TO);
    // Another tenant's lines in the same hours must never leak into the measured tenant's rollups.
    await writeLines(db, randomUUID(), lineDirectory(), 22, 200, FROM, TO);
  });
  afterAll(async () => {
    await db.end();
    await subgraph.close();
  });
  const breakdown = (rollups: boolean) => new RevenueBreakdownService(subgraph.orm.em.fork() as never, tenantId, NO_AUDIT, { rollups });
  const queries = (rollups: boolean) => new AnalyticsQueryService(subgraph.orm.em.fork() as never, TenantScope.ofStoredRow(tenantId), NO_AUDIT, { rollups });
  /** The answer, or the error's issues: both paths must also refuse alike. */
  const outcome = (work: Promise<unknown>) => work.then((value) => ({ value }), (error) => ({ error: error.issues ?? String(error) }));

  it('keeps every rollup equal to the lines rolled up afresh, through bulk inserts, single inserts, updates and deletes', async () => {
    for (const [name, columns] of Object.entries(ROLLUP_COLUMNS)) {
      const key = ['tenant_id', "to_char(hour at time zone 'UTC', 'YYYY-MM-DD HH24')", ...columns].join(', ');
      const fromRollup = await db.query(`select ${key}, line_count::int, package_count::int, gross_cents::int, discount_cents::int, net_cents::int, first_at, last_at
        from billing.revenue_hourly_${name} where tenant_id = $1 order by ${key}`, [tenantId]);
      const lineKey = key.replace('hour at', 'created_at at');
      const fromLines = await db.query(`select ${lineKey}, count(*)::int as line_count, (count(*) filter (where source = 'sold_package'))::int as package_count,
        sum(gross_cents)::int as gross_cents, sum(discount_cents)::int as discount_cents, sum(net_cents)::int as net_cents, min(created_at) as first_at, max(created_at) as last_at
        from billing.revenue_line where tenant_id = $1 group by ${lineKey} order by ${lineKey}`, [tenantId]);
      expect(fromRollup.rows.length).toBeGreaterThan(100);
      expect(fromRollup.rows).toEqual(fromLines.rows);
    }
  });

  it('summary, groups, group summaries and the page total: identical on both paths, and read from a rollup whenever one covers the filters', async () => {
    const ids = () => fc.subarray([...dir.locations.map((l) => l.id), randomUUID(), 'not-a-uuid'], { minLength: 1 });
    const lists = {
      locationIds: ids(),
      locationNames: fc.subarray(['harbor', 'Harbor Clinic', 'UPTOWN', 'Nowhere'], { minLength: 1 }),
      providerIds: fc.subarray(dir.providers.map((p) => p.id), { minLength: 1 }),
      providerNames: fc.subarray(['Maya Okafor', 'lee chen'], { minLength: 1 }),
      itemCategories: fc.subarray(dir.categories, { minLength: 1 }),
      paymentMediums: fc.subarray(dir.mediums, { minLength: 1 }),
    };
    const range = { timezone: fc.constantFrom(...ZONES), startDate: bound, endDate: bound };
    // Half the runs filter on one dimension at most (a rollup covers them), half on anything, including what only lines hold.
    const oneFamily = fc.constantFrom<(keyof typeof lists)[]>(['locationIds'], ['locationNames', 'locationIds'], ['providerIds'], ['providerNames'], ['itemCategories'], ['paymentMediums'], [])
      .chain((keys) => fc.record({ ...range, ...Object.fromEntries(keys.map((k) => [k, lists[k]])) }, { requiredKeys: ['timezone'] }));
    const anything = fc.record({ ...range, ...lists, itemNames: fc.constant(['Visit']), minNetCents: fc.integer({ min: 0, max: 5000 }) }, { requiredKeys: ['timezone'] });
    const args = fc.oneof(oneFamily, anything) as fc.Arbitrary<Record<string, any> & { timezone: string }>;
    const extra = fc.record({
      groupBy: fc.constantFrom(...Object.values(RevenueGroupBy)),
      sortBy: fc.constantFrom(...Object.values(RevenueGroupSortField)),
      sortDirection: fc.constantFrom(SortDirection.ASC, SortDirection.DESC),
      row: fc.option(fc.oneof(
        fc.record({ location: fc.constantFrom(...dir.locations.map((l) => l.id)) }),
        fc.record({ provider: fc.constantFrom('', ...dir.providers.map((p) => p.id)) }),
        fc.record({ paymentMedium: fc.constantFrom(...dir.mediums) }),
        fc.record({ createdDate: fc.integer({ min: 0, max: 38 }).map((d) => new Date(FROM.getTime() + d * 86_400_000).toISOString().slice(0, 10)) }),
      ), { nil: undefined }),
    });
    let viaRollup = 0;
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(args, extra, async (filters, { groupBy, sortBy, sortDirection, row }) => {
        const [onRollups, onLines] = [breakdown(true), breakdown(false)];
        const summary = await outcome(onRollups.summary(filters));
        expect(summary).toEqual(await outcome(onLines.summary(filters)));
        if ('value' in summary && (summary.value as { count: number }).count > 0) answered++;
        expect(await outcome(onRollups.groups({ ...filters, groupBy }))).toEqual(await outcome(onLines.groups({ ...filters, groupBy })));
        const summaries = { ...filters, groupBy, sortBy, sortDirection };
        expect(await outcome(onRollups.groupSummaries(summaries))).toEqual(await outcome(onLines.groupSummaries(summaries)));
        const page = { ...filters, ...row, sortBy: RevenueBreakdownSortField.CREATED_DATE, sortDirection, first: 5, after: offsetCursor(5) };
        expect(await outcome(onRollups.lines(page))).toEqual(await outcome(onLines.lines(page)));
        const parsed = parseRevenueFilter(filters, new QueryIssues());
        // One rollup per dimension: filters on one of them (or none) and on nothing a rollup lacks have one that covers them.
        const families = new Set(Object.keys(filters).map((key) => key.replace(/(Ids|Names)$/, '')).filter((key) => key !== 'timezone' && key !== 'startDate' && key !== 'endDate'));
        const covered = !families.has('item') && !families.has('minNetCents') && families.size <= 1;
        const via = summaryStatement(tenantId, parsed, true).via;
        if (covered) expect(via).not.toBe('lines');
        if (via !== 'lines') viaRollup++;
      }),
      { numRuns: 150 },
    );
    expect(viaRollup).toBeGreaterThan(40);
    expect(answered).toBeGreaterThan(40);
  });

  it('execute-query: identical on both paths for random measures, dimensions, granularities, ranges and filters', async () => {
    const dimension = fc.constantFrom('revenue.location', 'revenue.locationId', 'revenue.provider', 'revenue.providerId', 'revenue.itemCategory', 'revenue.paymentMedium', 'revenue.source');
    const filter = fc.oneof(
      fc.record({ member: fc.constantFrom('revenue.paymentMedium', 'revenue.itemCategory', 'revenue.location'), operator: fc.constantFrom('equals', 'notEquals', 'contains', 'startsWith', 'set', 'notSet'), values: fc.constant(['ca']) }),
      fc.record({ member: fc.constantFrom('revenue.providerId'), operator: fc.constantFrom('equals', 'notEquals', 'notSet'), values: fc.constant([dir.providers[0].id]) }),
      fc.record({ member: fc.constantFrom('revenue.count', 'revenue.netAmount'), operator: fc.constantFrom('gt', 'lte'), values: fc.constantFrom(['3'], ['20000']) }),
    );
    const query = fc.record(
      {
        measures: fc.subarray(['revenue.count', 'revenue.netAmount', 'revenue.grossAmount', 'revenue.discountAmount', 'revenue.averageNet'], { minLength: 1 }),
        dimensions: fc.uniqueArray(dimension, { maxLength: 2 }),
        timeDimensions: fc.array(fc.record({
          dimension: fc.constant('revenue.createdAt'),
          granularity: fc.constantFrom('day', 'week', 'month', 'quarter', 'year'),
          dateRange: fc.tuple(bound, bound).map(([a, b]) => (a <= b ? [a, b] : [b, a])),
        }, { requiredKeys: ['dimension', 'granularity'] }), { maxLength: 2 }),
        filters: fc.array(filter, { maxLength: 2 }),
        timezone: fc.constantFrom(...ZONES),
      },
      { requiredKeys: ['measures', 'timezone'] },
    );
    let viaRollup = 0;
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const result = await outcome(queries(true).execute(q));
        expect(result).toEqual(await outcome(queries(false).execute(q)));
        if ('value' in result && (result.value as { data: unknown[] }).data.length > 0) answered++;
        const parsed = parseQuery(q, ['query'], { now: new Date(), requireMembers: true });
        if (parsed.ok && buildQuery(parsed.query, tenantId, true).via !== 'lines') viaRollup++;
      }),
      { numRuns: 150 },
    );
    expect(viaRollup).toBeGreaterThan(50);
    expect(answered).toBeGreaterThan(50);
  });
});
