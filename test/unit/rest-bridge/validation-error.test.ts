import type { ValidationIssue } from '../../../schema/errors';
import type { RouteDefinition } from '../../../rest-bridge/types';
import { jsonInvalid, relocate, validationDetail } from '../../../rest-bridge/validation-error';

/** What FastAPI answers for a body JSON.parse refuses. */
function invalid(raw: string) {
  let error: Error | undefined;
  try {
    JSON.parse(raw);
  } catch (e) {
    error = e as Error;
  }
  if (!error) throw new Error(`${raw} is valid JSON`);
  return validationDetail([jsonInvalid(raw, error)], undefined)[0];
}

describe('jsonInvalid', () => {
  it('reports a missing value with Python json wording and offset', () => {
    const detail = invalid('{"a": }');
    expect(JSON.stringify(detail)).toBe(
      JSON.stringify({ type: 'json_invalid', loc: ['body', 6], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting value' } }),
    );
  });

  it('reports a trailing comma as Python before 3.13 does', () => {
    expect(invalid('{"a": 1,}')).toEqual({
      type: 'json_invalid',
      loc: ['body', 8],
      msg: 'JSON decode error',
      input: {},
      ctx: { error: 'Expecting property name enclosed in double quotes' },
    });
  });

  it.each([
    ['', 0, 'Expecting value'],
    ['  ', 2, 'Expecting value'],
    ['{', 1, 'Expecting property name enclosed in double quotes'],
    ['{"a": 1', 7, "Expecting ',' delimiter"],
    ['{"a": [1, ', 10, 'Expecting value'],
    ['{"a" 1}', 5, "Expecting ':' delimiter"],
    ['{"a": 1} x', 9, 'Extra data'],
    ['{"a": "b', 6, 'Unterminated string starting at'],
    ['{"a": "\\q"}', 7, 'Invalid \\escape'],
    ['{"a": tru}', 6, 'Expecting value'],
    ['{"😀": }', 6, 'Expecting value'],
  ])('%j -> offset %i, %s', (raw, offset, message) => {
    expect(invalid(raw)).toMatchObject({ loc: ['body', offset], ctx: { error: message } });
  });
});

describe('validationDetail, the one place that picks the 422 style', () => {
  const issue: ValidationIssue = { ctx: { error: 'bad' }, input: 'x', msg: 'Value error, bad', loc: ['body', 'tz'], type: 'value_error' };
  const FULL = '[{"type":"value_error","loc":["body","tz"],"msg":"Value error, bad","input":"x","ctx":{"error":"bad"}}]';

  it('orders full elements type, loc, msg, input, ctx, for a route that names no style', () => {
    expect(JSON.stringify(validationDetail([issue], {}))).toBe(FULL);
    expect(JSON.stringify(validationDetail([issue], { validationStyle: 'full' }))).toBe(FULL);
  });

  it('answers full where no route answers (an unknown path, /admin)', () => {
    expect(JSON.stringify(validationDetail([issue], undefined))).toBe(FULL);
  });

  it("keeps loc, msg and type only for a route of the basic style (contract part 7.2)", () => {
    expect(JSON.stringify(validationDetail([issue], { validationStyle: 'basic' }))).toBe('[{"loc":["body","tz"],"msg":"Value error, bad","type":"value_error"}]');
  });

  it('omits ctx when the issue has none and sends input null when it has none', () => {
    expect(JSON.stringify(validationDetail([{ type: 'missing', loc: ['query', 'q'], msg: 'Field required' }], undefined))).toBe(
      '[{"type":"missing","loc":["query","q"],"msg":"Field required","input":null}]',
    );
  });
});

describe('relocate', () => {
  const route: RouteDefinition = {
    method: 'PUT',
    path: '/widgets/{widget_id}',
    operationId: 'updateWidget',
    summary: 'test',
    tag: 'test',
    document: 'mutation ($widgetId: ID!, $input: WidgetInput!, $perPage: Int, $tenant: String) { x }',
    pathParams: { widget_id: 'widgetId' },
    queryParams: { per_page: 'perPage' },
    headerParams: { tenant: 'tenant' },
    body: { variable: 'input', required: true },
    result: (data) => data,
  };

  it('rewrites GraphQL argument names into REST locations', () => {
    const issue = (loc: (string | number)[]): ValidationIssue => ({ type: 'value_error', loc, msg: 'Value error, no', input: 1, ctx: { error: 'no' } });
    const moved = relocate([issue(['input', 'timezone']), issue(['widgetId']), issue(['perPage']), issue(['tenant']), issue(['other', 0])], route);
    expect(moved.map((i) => i.loc)).toEqual([['body', 'timezone'], ['path', 'widget_id'], ['query', 'per_page'], ['header', 'tenant'], ['other', 0]]);
    expect(moved[0]).toEqual(issue(['body', 'timezone']));
  });
});
