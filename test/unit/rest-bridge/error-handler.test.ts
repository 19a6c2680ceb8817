import { testContext } from '../../utils/request-context';
import express from 'express';
import { ConflictError, RateLimitedError, ServiceUnavailableError } from '../../../schema/errors';
import { errorHandler, graphQLErrorAnswer, retryAfterHeader } from '../../../rest-bridge/http-errors';
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
