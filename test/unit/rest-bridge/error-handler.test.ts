import { testContext } from '../../utils/request-context';
import express from 'express';
import { ConflictError, RateLimitedError, ServiceUnavailableError, ValidationError } from '../../../schema/errors';
import { answering, errorHandler, graphQLErrorAnswer, retryAfterHeader } from '../../../rest-bridge/http-errors';
import type { RouteDefinition } from '../../../rest-bridge/types';
import { listen, type ListeningApp } from '../../utils/listen';

/**
 * The bridge's one error mapper for errors thrown straight into express (middleware, stream
 * set-up), on a real HTTP server: status and body from the domain error, Retry-After from its
 * extensions, and the cause of a 5xx logged, never sent.
 */
describe('errorHandler for domain errors thrown outside GraphQL', () => {
  let server: ListeningApp;
  const logged: unknown[] = [];
  const outage = new ServiceUnavailableError('Payment processor unavailable; retry the request', 10, { cause: new Error('connect ECONNREFUSED') });

  beforeAll(async () => {
    const app = express();
    app.get('/outage', () => {
      throw outage;
    });
    app.get('/queue-full', () => {
      throw new RateLimitedError(3, 'Too many expensive requests in progress for this tenant; retry after 3 s');
    });
    app.get('/conflict', () => {
      throw new ConflictError('Already there');
    });
    app.use(errorHandler((_ctx, error) => logged.push(error), () => testContext()));
    server = await listen(app);
  });
  afterAll(() => server.close());

  it('answers a 503 with Retry-After and logs its cause', async () => {
    const res = await fetch(`${server.base}/outage`);
    expect([res.status, res.headers.get('retry-after'), await res.json()]).toEqual([503, '10', { detail: 'Payment processor unavailable; retry the request' }]);
    expect(logged).toEqual([outage]);
  });

  it('answers a 4xx without Retry-After and without a log line', async () => {
    logged.length = 0;
    const res = await fetch(`${server.base}/conflict`);
    expect([res.status, res.headers.get('retry-after'), await res.json()]).toEqual([409, null, { detail: 'Already there' }]);
    expect(logged).toEqual([]);
  });

  it('answers a 429 with Retry-After and its own detail, without a log line', async () => {
    logged.length = 0;
    const res = await fetch(`${server.base}/queue-full`);
    expect([res.status, res.headers.get('retry-after'), await res.json()]).toEqual([429, '3', { detail: 'Too many expensive requests in progress for this tenant; retry after 3 s' }]);
    expect(logged).toEqual([]);
  });
});

describe('Retry-After from a GraphQL error', () => {
  const route = { operationId: 'executeAnalyticsQuery' } as RouteDefinition;
  const fail = () => {
    throw new Error('not logged');
  };

  it("a RATE_LIMITED field error (a full fair queue) is a 429 with its retryAfter in whole seconds and its message as detail", () => {
    const errors = [{ message: 'Too many expensive requests in progress for this tenant; retry after 3 s', extensions: { code: 'RATE_LIMITED', retryAfter: 2.5 } }];
    expect(graphQLErrorAnswer(errors, route, fail)).toEqual({ status: 429, body: { detail: errors[0].message }, headers: { 'Retry-After': '3' } });
  });

  it('sends no Retry-After for anything but a positive number of seconds', () => {
    expect([retryAfterHeader(1), retryAfterHeader(0), retryAfterHeader(-1), retryAfterHeader('2'), retryAfterHeader(Number.NaN), retryAfterHeader(undefined)]).toEqual(['1', undefined, undefined, undefined, undefined, undefined]);
  });
});

/**
 * Every 422 the bridge writes takes the style of the route that answers (validation-error.ts,
 * `validationDetail`), whatever raised it: here a body the JSON parser refused before the route ran,
 * and a ValidationError thrown by the route, on a real HTTP server.
 */
describe('the 422 style of the route that answers', () => {
  let server: ListeningApp;
  const issue = { type: 'value_error', loc: ['header', 'idempotency-key'], msg: 'Value error, too long', input: 'k'.repeat(300), ctx: { error: 'too long' } };
  const basic = { validationStyle: 'basic' } as RouteDefinition;
  const full = {} as RouteDefinition;

  beforeAll(async () => {
    const app = express();
    const refuse = () => {
      throw new ValidationError([issue]);
    };
    app.post('/basic', answering(basic), express.json(), refuse);
    app.post('/full', answering(full), express.json(), refuse);
    // No route marked the response (the operator's own endpoints): the default style.
    app.post('/unrouted', express.json(), refuse);
    app.use(errorHandler(() => undefined, () => testContext()));
    server = await listen(app);
  });
  afterAll(() => server.close());

  const post = async (path: string, body: string) => {
    const res = await fetch(`${server.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return [res.status, await res.json()];
  };

  it("answers a basic route's refusals with loc, msg and type only", async () => {
    expect(await post('/basic', '{}')).toEqual([422, { detail: [{ loc: issue.loc, msg: issue.msg, type: issue.type }] }]);
    expect(await post('/basic', '{"a": }')).toEqual([422, { detail: [{ loc: ['body', 6], msg: 'JSON decode error', type: 'json_invalid' }] }]);
  });

  it('answers any other route, and no route, in the full style', async () => {
    const fullBody = { detail: [issue] };
    expect(await post('/full', '{}')).toEqual([422, fullBody]);
    expect(await post('/unrouted', '{}')).toEqual([422, fullBody]);
    expect(await post('/full', '{"a": }')).toEqual([422, { detail: [{ type: 'json_invalid', loc: ['body', 6], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting value' } }] }]);
  });
});

describe('graphQLErrorAnswer', () => {
  const route = { operationId: 'createPaymentMethod', validationStyle: 'basic', body: { variable: 'input', required: true } } as RouteDefinition;

  it("relocates a subgraph's issues into HTTP terms, in the route's style", () => {
    const errors = [{ message: 'bad', extensions: { code: 'BAD_USER_INPUT', validation: [{ type: 'value_error', loc: ['input', 'brand'], msg: 'Value error, bad', input: 'x' }] } }];
    expect(graphQLErrorAnswer(errors, route, () => undefined)).toEqual({ status: 422, body: { detail: [{ loc: ['body', 'brand'], msg: 'Value error, bad', type: 'value_error' }] } });
  });

  it('hides an internal error, and a code HTTP has no status for, behind a logged 500', () => {
    const logged: Error[] = [];
    for (const extensions of [{ code: 'INTERNAL_SERVER_ERROR' }, {}, { code: 'GRAPHQL_VALIDATION_FAILED' }, { code: 'constructor' }]) {
      expect(graphQLErrorAnswer([{ message: 'pool exhausted', extensions }], route, (error) => logged.push(error))).toEqual({ status: 500, body: { detail: 'Internal server error' } });
    }
    expect(logged.map((error) => error.message)).toEqual(Array(4).fill('GraphQL operation createPaymentMethod failed: pool exhausted'));
  });
});
