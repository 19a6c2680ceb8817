import { createTestTenant, type TestTenant } from '../utils/e2e';
import { createLocation, executeQuery, post, recordSales } from '../subgraphs/analytics/revenue-kit';

const TZ_REASON = 'timezone must be an IANA time zone name, e.g. America/New_York';
const MEASURES = 'revenue.count, revenue.netAmount, revenue.grossAmount, revenue.discountAmount, revenue.averageNet';
const OPERATORS = 'equals, notEquals, in, notIn, contains, notContains, startsWith, endsWith, gt, gte, lt, lte, set, notSet, inDateRange, notInDateRange, beforeDate, beforeOrOnDate, afterDate, afterOrOnDate';
const value = (loc: (string | number)[], reason: string, input: unknown) => ({ type: 'value_error', loc, msg: `Value error, ${reason}`, input, ctx: { error: reason } });

describe(`POST /analytics/widgets/execute-query (${process.env.E2E_MODE} mode)`, () => {
  let tenant: TestTenant;
  let north: string;
  beforeAll(async () => {
    tenant = await createTestTenant('Query Clinic');
    north = await createLocation(tenant, 'North');
    const south = await createLocation(tenant, 'South');
    await recordSales(tenant, [
      { locationId: north, grossCents: 10000, discountCents: 1000, at: '2026-01-05T15:00:00Z' },
      { locationId: north, grossCents: 5001, at: '2026-01-20T15:00:00Z', paymentMedium: 'CASH' },
      { locationId: south, grossCents: 20000, at: '2026-02-10T15:00:00Z', itemCategory: 'Retail', comment: 'gift' },
    ]);
  });

  it('answers rows keyed by member, the normalised query and the annotation; the body may be the query or {query}', async () => {
    const query = {
      measures: ['revenue.netAmount', 'revenue.count', 'revenue.averageNet'],
      dimensions: ['revenue.location'],
      timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'month', dateRange: ['2026-01-01', '2026-02-28'] }],
      order: { 'revenue.createdAt': 'asc', 'revenue.netAmount': 'desc' },
    };
    const res = await executeQuery(tenant, query);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { 'revenue.location': 'North', 'revenue.createdAt.month': '2026-01-01T00:00:00.000', 'revenue.createdAt': '2026-01-01T00:00:00.000', 'revenue.netAmount': 14001, 'revenue.count': 2, 'revenue.averageNet': 7001 },
      { 'revenue.location': 'South', 'revenue.createdAt.month': '2026-02-01T00:00:00.000', 'revenue.createdAt': '2026-02-01T00:00:00.000', 'revenue.netAmount': 20000, 'revenue.count': 1, 'revenue.averageNet': 20000 },
    ]);
    expect(res.body.query).toEqual({
      ...query,
      timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'month', dateRange: ['2026-01-01T00:00:00.000', '2026-02-28T23:59:59.999'] }],
      filters: [],
      order: [['revenue.createdAt', 'asc'], ['revenue.netAmount', 'desc']],
      limit: 1000,
      offset: 0,
      timezone: 'UTC',
    });
    expect(res.body.annotation.measures['revenue.netAmount']).toMatchObject({ title: 'Revenue Net Amount', shortTitle: 'Net Amount', type: 'number', meta: { unit: 'cents' } });
    expect(res.body.annotation.dimensions['revenue.location']).toMatchObject({ title: 'Revenue Location', type: 'string' });
    expect(res.body.annotation.timeDimensions['revenue.createdAt.month']).toMatchObject({ type: 'time', granularity: { name: 'month', title: 'Month' } });
    expect((await executeQuery(tenant, { query })).body).toEqual(res.body);
    const graphql = await tenant.graphql('query($q: JSON!) { executeAnalyticsQuery(query: $q) { data } }', { q: query });
    expect(graphql.body.data.executeAnalyticsQuery.data).toEqual(res.body.data);
  });

  it('filters: nested and/or, measure filters after aggregation, text and date operators', async () => {
    const data = async (body: Record<string, unknown>) => {
      const res = await executeQuery(tenant, { measures: ['revenue.count'], ...body });
      expect(res.status).toBe(200);
      return res.body.data;
    };
    const cashOrSouthRetail = {
      or: [
        { member: 'revenue.paymentMedium', operator: 'equals', values: ['cash'] },
        { and: [{ member: 'revenue.location', operator: 'contains', values: ['OUT'] }, { member: 'revenue.itemCategory', operator: 'in', values: ['Retail'] }] },
      ],
    };
    expect(await data({ filters: [cashOrSouthRetail] })).toEqual([{ 'revenue.count': 2 }]);
    expect(await data({ filters: [{ member: 'revenue.itemCategory', operator: 'notEquals', values: ['Retail'] }] })).toEqual([{ 'revenue.count': 2 }]);
    expect(await data({ filters: [{ member: 'revenue.providerId', operator: 'notSet' }, { member: 'revenue.locationId', operator: 'equals', values: [north, 'not-a-uuid'] }] })).toEqual([{ 'revenue.count': 2 }]);
    expect(await data({ filters: [{ member: 'revenue.createdAt', operator: 'inDateRange', values: ['2026-01-20', '2026-02-09'] }] })).toEqual([{ 'revenue.count': 1 }]);
    expect(await data({ filters: [{ member: 'revenue.createdAt', operator: 'inDateRange', values: ['2026-01-05', '2026-01-05'] }] })).toEqual([{ 'revenue.count': 1 }]);
    expect(await data({ filters: [{ member: 'revenue.createdAt', operator: 'beforeDate', values: ['2026-01-20T15:00:00Z'] }] })).toEqual([{ 'revenue.count': 1 }]);
    const having = await data({ dimensions: ['revenue.location'], filters: [{ member: 'revenue.netAmount', operator: 'gt', values: ['15000'] }] });
    expect(having).toEqual([{ 'revenue.location': 'South', 'revenue.count': 1 }]);
    const paged = await data({ dimensions: ['revenue.location'], order: [['revenue.location', 'desc']], limit: 1, offset: 1 });
    expect(paged).toEqual([{ 'revenue.location': 'North', 'revenue.count': 2 }]);
  });

  it('unknown members and operators, a limit over 10,000 and a bad timezone are 422s naming them', async () => {
    const res = await executeQuery(tenant, {
      measures: ['revenue.netAmount', 'revenue.profit'],
      dimensions: ['revenue.netAmount'],
      filters: [{ member: 'revenue.location', operator: 'like', values: ['x'] }],
      limit: 10001,
      timezone: 'Europe/Atlantis',
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      detail: [
        value(['body', 'measures', 1], `unknown measure 'revenue.profit'; measures: ${MEASURES}`, 'revenue.profit'),
        value(['body', 'dimensions', 0], "'revenue.netAmount' is a measure, not a dimension", 'revenue.netAmount'),
        value(['body', 'filters', 0, 'operator'], `unknown operator 'like'; operators: ${OPERATORS}`, 'like'),
        { type: 'less_than_equal', loc: ['body', 'limit'], msg: 'Input should be less than or equal to 10000', input: 10001, ctx: { le: 10000 } },
        value(['body', 'timezone'], TZ_REASON, 'Europe/Atlantis'),
      ],
    });
    const wrapped = await executeQuery(tenant, { query: { measures: ['revenue.foo'] } });
    expect(wrapped.body).toEqual({ detail: [value(['body', 'query', 'measures', 0], `unknown measure 'revenue.foo'; measures: ${MEASURES}`, 'revenue.foo')] });
  });

  it('refuses bodies that are no query, and queries that select nothing', async () => {
    expect((await executeQuery(tenant, [1])).body).toEqual({ detail: [{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: [1] }] });
    expect((await executeQuery(tenant, '{"measures": [')).body.detail[0]).toMatchObject({ type: 'json_invalid', loc: ['body', 14] });
    const empty = await executeQuery(tenant, { filters: [] });
    const reason = 'the query selects nothing: give it measures, dimensions or a time dimension with a granularity';
    expect(empty.body).toEqual({ detail: [value(['body'], reason, { filters: [] })] });
    const extra = await executeQuery(tenant, { query: { measures: ['revenue.count'] }, sql: 'select 1' });
    expect(extra.body).toEqual({ detail: [{ type: 'extra_forbidden', loc: ['body', 'sql'], msg: 'Extra inputs are not permitted', input: 'select 1' }] });
    const operator = await executeQuery(tenant, { measures: ['revenue.count'], filters: [{ member: 'revenue.location', operator: 'gt', values: ['a'] }] });
    expect(operator.body.detail[0]).toMatchObject({ loc: ['body', 'filters', 0, 'operator'], msg: 'Value error, operator gt does not apply to revenue.location; use one of equals, notEquals, in, notIn, contains, notContains, startsWith, endsWith, set, notSet' });
  });

  it('injection: a member name with SQL is a 422; SQL in a filter value is just a value', async () => {
    const member = await executeQuery(tenant, { measures: ['revenue.netAmount; --'], dimensions: ['revenue.location" from pg_user --'] });
    expect(member.status).toBe(422);
    expect(member.body.detail.map((d: any) => d.loc)).toEqual([['body', 'measures', 0], ['body', 'dimensions', 0]]);
    const order = await executeQuery(tenant, { measures: ['revenue.count'], order: { 'revenue.count desc; drop table billing.charge_items; --': 'asc' } });
    expect(order.status).toBe(422);
    for (const hostile of ["'; drop table billing.charge_items; --", "North' or '1'='1", '%']) {
      const res = await executeQuery(tenant, { measures: ['revenue.count'], filters: [{ member: 'revenue.location', operator: 'equals', values: [hostile] }, { member: 'revenue.itemName', operator: 'contains', values: [hostile] }] });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([{ 'revenue.count': 0 }]);
    }
    expect((await executeQuery(tenant, { measures: ['revenue.count'] })).body.data).toEqual([{ 'revenue.count': 3 }]);
  });

  it("never sees another tenant's lines", async () => {
    const other = await createTestTenant('Other Query Clinic');
    await recordSales(other, [{ locationId: await createLocation(other, 'North'), grossCents: 77700, at: '2026-01-05T16:00:00Z' }]);
    const mine = await executeQuery(tenant, { measures: ['revenue.count', 'revenue.netAmount'], dimensions: ['revenue.location'] });
    expect(mine.body.data).toEqual([
      { 'revenue.location': 'North', 'revenue.count': 2, 'revenue.netAmount': 14001 },
      { 'revenue.location': 'South', 'revenue.count': 1, 'revenue.netAmount': 20000 },
    ]);
    expect((await executeQuery(other, { measures: ['revenue.netAmount'] })).body.data).toEqual([{ 'revenue.netAmount': 77700 }]);
  });

  it('saving a widget validates its query with the engine; relative date ranges are stored as sent', async () => {
    const dashboard = await post(tenant, '/analytics/dashboards', { name: 'Board' });
    const body = (query: unknown) => ({ dashboardId: dashboard.body.id, name: 'W', chartType: 'line', query });
    const bad = await post(tenant, '/analytics/widgets', body({ measures: ['revenue.netAmount; --'], timeDimensions: [{ dimension: 'revenue.location', granularity: 'hour' }] }));
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: any) => [d.type, d.loc])).toEqual([
      ['value_error', ['body', 'query', 'measures', 0]],
      ['value_error', ['body', 'query', 'timeDimensions', 0, 'dimension']],
      ['enum', ['body', 'query', 'timeDimensions', 0, 'granularity']],
    ]);
    const query = { measures: ['revenue.netAmount'], timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'week', dateRange: 'last 4 weeks' }] };
    const good = await post(tenant, '/analytics/widgets', body(query));
    expect(good.status).toBe(201);
    // Stored as sent, with the tenant's time zone added: a widget always runs in a zone of its own (issue 34).
    const { timezone } = (await tenant.get('/tenant/public')).body;
    expect(good.body.query).toEqual({ ...query, timezone });
    expect(good.body.timezone).toBe(timezone);
    expect((await executeQuery(tenant, { query: good.body.query })).status).toBe(200);
  });
});
