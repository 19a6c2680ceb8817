import { validateWidgetQuery } from '../../../../subgraphs/analytics/query/validate-widget-query';

describe('validateWidgetQuery (the seam the query engine replaces)', () => {
  it('accepts a Cube-shaped query and returns it', () => {
    const query = {
      measures: ['revenue.netAmount'],
      dimensions: ['revenue.provider'],
      timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'month' }],
      filters: [{ member: 'revenue.location', operator: 'equals', values: ['x'] }],
      order: { 'revenue.netAmount': 'desc' },
      limit: 10,
      offset: 0,
      timezone: 'America/New_York',
    };
    expect(validateWidgetQuery(query, ['input', 'query'])).toEqual({ ok: true, query });
    expect(validateWidgetQuery({}, ['input', 'query'])).toEqual({ ok: true, query: {} });
    expect(validateWidgetQuery({ order: [['revenue.netAmount', 'asc']] }, ['q']).ok).toBe(true);
  });

  it('refuses anything but a JSON object', () => {
    for (const value of [null, 5, 'measures', [], true]) {
      expect(validateWidgetQuery(value, ['input', 'query'])).toEqual({
        ok: false,
        issues: [{ type: 'dict_type', loc: ['input', 'query'], msg: 'Input should be a valid dictionary', input: value }],
      });
    }
  });

  it('names every unknown key and every mistyped one under the given loc', () => {
    const result = validateWidgetQuery(
      { measures: 'revenue.netAmount', dimensions: [1], timeDimensions: ['x'], filters: {}, order: 'desc', limit: 1.5, offset: -1, timezone: 3, sql: 'drop table' },
      ['input', 'query'],
    );
    expect(result).toEqual({
      ok: false,
      issues: [
        { type: 'extra_forbidden', loc: ['input', 'query', 'sql'], msg: 'Extra inputs are not permitted', input: 'drop table' },
        { type: 'list_type', loc: ['input', 'query', 'measures'], msg: 'Input should be a valid list', input: 'revenue.netAmount' },
        { type: 'string_type', loc: ['input', 'query', 'dimensions', 0], msg: 'Input should be a valid string', input: 1 },
        { type: 'dict_type', loc: ['input', 'query', 'timeDimensions', 0], msg: 'Input should be a valid dictionary', input: 'x' },
        { type: 'list_type', loc: ['input', 'query', 'filters'], msg: 'Input should be a valid list', input: {} },
        { type: 'value_error', loc: ['input', 'query', 'order'], msg: 'Value error, order must be an object or a list', input: 'desc', ctx: { error: 'order must be an object or a list' } },
        { type: 'int_type', loc: ['input', 'query', 'limit'], msg: 'Input should be a valid integer', input: 1.5 },
        { type: 'greater_than_equal', loc: ['input', 'query', 'offset'], msg: 'Input should be greater than or equal to 0', input: -1, ctx: { ge: 0 } },
        { type: 'string_type', loc: ['input', 'query', 'timezone'], msg: 'Input should be a valid string', input: 3 },
      ],
    });
  });
});
