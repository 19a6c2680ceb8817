import { parseQuery } from '../../../../subgraphs/analytics/query/parse-query';

const NOW = new Date('2026-04-15T12:00:00Z');
const parse = (query: unknown, requireMembers = true) => parseQuery(query, ['query'], { now: NOW, requireMembers });
const issues = (query: unknown) => {
  const result = parse(query);
  if (result.ok) throw new Error('expected issues');
  return result.issues.map((i) => [i.type, i.loc.join('.'), i.msg]);
};

describe('parseQuery (the engine’s validator and normaliser)', () => {
  it('normalises: defaults, de-duplicated members, canonical timezone, resolved ranges, order pairs, filter aliases', () => {
    const result = parse({
      measures: ['revenue.netAmount', 'revenue.netAmount'],
      timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'week', dateRange: 'last month' }, { dimension: 'revenue.createdAt', dateRange: 'from 2026-01-01 to 2026-01-31T12:00' }],
      filters: [{ dimension: 'revenue.location', operator: 'equals', values: ['North', 7] }, { member: 'revenue.createdAt', operator: 'inDateRange', values: ['2026-01-01', '2026-01-31'] }],
      timezone: 'europe/berlin',
    });
    expect(result).toEqual({
      ok: true,
      query: {
        measures: ['revenue.netAmount'],
        dimensions: [],
        timeDimensions: [
          { dimension: 'revenue.createdAt', granularity: 'week', dateRange: ['2026-03-01T00:00:00.000', '2026-03-31T23:59:59.999'] },
          { dimension: 'revenue.createdAt', dateRange: ['2026-01-01T00:00:00.000', '2026-01-31T12:00:00.000'] },
        ],
        filters: [
          { member: 'revenue.location', operator: 'equals', values: ['North', '7'] },
          { member: 'revenue.createdAt', operator: 'inDateRange', values: ['2026-01-01T00:00:00.000', '2026-01-31T23:59:59.999'] },
        ],
        order: [['revenue.createdAt', 'asc']],
        limit: 1000,
        offset: 0,
        timezone: 'Europe/Berlin',
      },
    });
  });

  it('applies Cube’s default order: first measure descending without a grouped time, else the first dimension', () => {
    expect(parse({ measures: ['revenue.count'], dimensions: ['revenue.location'] })).toMatchObject({ query: { order: [['revenue.count', 'desc']] } });
    expect(parse({ dimensions: ['revenue.location'] })).toMatchObject({ query: { order: [['revenue.location', 'asc']] } });
    expect(parse({ measures: ['revenue.count'], order: [] })).toMatchObject({ query: { order: [] } });
  });

  it('refuses a query that selects nothing only when it is to run', () => {
    expect(issues({})).toEqual([['value_error', 'query', 'Value error, the query selects nothing: give it measures, dimensions or a time dimension with a granularity']]);
    expect(parse({ timeDimensions: [{ dimension: 'revenue.createdAt', dateRange: 'today' }] }, false).ok).toBe(true);
  });

  it('checks members, ranges, order and limits, each at its own location', () => {
    expect(issues({
      measures: ['revenue.location'],
      dimensions: ['Revenue.location', 'revenue'],
      timeDimensions: [{ dimension: 'revenue.createdAt', dateRange: ['2026-02-01', '2026-01-01'] }, { dimension: 'revenue.createdAt', dateRange: 'since forever', compareDateRange: [] }],
      order: { 'revenue.itemName': 'asc', 'revenue.count': 'up' },
      offset: -1,
    })).toEqual([
      ['value_error', 'query.measures.0', "Value error, 'revenue.location' is a dimension, not a measure"],
      ['value_error', 'query.dimensions.0', expect.stringMatching(/^Value error, unknown dimension 'Revenue.location'; dimensions: revenue.location, /)],
      ['value_error', 'query.dimensions.1', expect.stringMatching(/^Value error, unknown dimension 'revenue'/)],
      ['value_error', 'query.timeDimensions.0.dateRange', 'Value error, dateRange starts after it ends'],
      ['extra_forbidden', 'query.timeDimensions.1.compareDateRange', 'Extra inputs are not permitted'],
      ['value_error', 'query.timeDimensions.1.dateRange', expect.stringMatching(/^Value error, dateRange must be \[from, to\]/)],
      ['value_error', 'query.order.revenue.itemName', "Value error, cannot order by 'revenue.itemName': order by a measure, or by a dimension the query selects"],
      ['enum', 'query.order.revenue.count', "Input should be 'asc' or 'desc'"],
      ['greater_than_equal', 'query.offset', 'Input should be greater than or equal to 0'],
    ]);
  });

  it('checks filters: operator per member type, value counts and types, nesting, mixing', () => {
    const deep = (depth: number): unknown => (depth === 0 ? { member: 'revenue.location', operator: 'set' } : { and: [deep(depth - 1)] });
    expect(issues({
      measures: ['revenue.count'],
      filters: [
        { member: 'revenue.netAmount', operator: 'contains', values: ['1'] },
        { member: 'revenue.netAmount', operator: 'gt', values: ['1e400'] },
        { member: 'revenue.createdAt', operator: 'beforeDate', values: ['2026-01-01', '2026-02-01'] },
        { member: 'revenue.createdAt', operator: 'afterDate', values: ['soon'] },
        { member: 'revenue.location', operator: 'equals', values: [null] },
        { member: 'revenue.location', operator: 'equals' },
        { or: [{ member: 'revenue.location', operator: 'set' }, { member: 'revenue.count', operator: 'gt', values: [1] }] },
        { and: [] },
        { operator: 'set' },
        deep(6),
      ],
    })).toEqual([
      ['value_error', 'query.filters.0.operator', 'Value error, operator contains does not apply to revenue.netAmount; use one of equals, notEquals, in, notIn, gt, gte, lt, lte, set, notSet'],
      ['value_error', 'query.filters.1.values.0', 'Value error, value must be a number'],
      ['value_error', 'query.filters.2.values', 'Value error, operator beforeDate takes exactly 1 value'],
      ['value_error', 'query.filters.3.values.0', 'Value error, value must be a date (YYYY-MM-DD) or an ISO 8601 date-time'],
      ['string_type', 'query.filters.4.values.0', 'Input should be a valid string'],
      ['value_error', 'query.filters.5.values', 'Value error, operator equals takes 1 to 1000 values'],
      ['value_error', 'query.filters.6', 'Value error, an or group cannot mix measures and dimensions'],
      ['value_error', 'query.filters.7.and', 'Value error, an and group needs at least one filter'],
      ['missing', 'query.filters.8.member', 'Field required'],
      ['value_error', 'query.filters.9.and.0.and.0.and.0.and.0.and.0', 'Value error, filter groups nest at most 5 deep'],
    ]);
  });

  it('caps the work a query can ask for', () => {
    const many = Array.from({ length: 51 }, () => 'revenue.count');
    expect(issues({ measures: many })).toEqual([['too_long', 'query.measures', 'List should have at most 50 items after validation, not 51']]);
    const filters = Array.from({ length: 101 }, () => ({ member: 'revenue.location', operator: 'set' }));
    expect(issues({ measures: ['revenue.count'], filters })).toEqual([['value_error', 'query.filters', 'Value error, a query takes at most 100 filters and filter groups']]);
  });
});
