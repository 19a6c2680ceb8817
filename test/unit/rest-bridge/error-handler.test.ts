import { testContext } from '../../utils/request-context';
import express from 'express';
import { ConflictError, ServiceUnavailableError } from '../../../schema/errors';
import { errorHandler } from '../../../rest-bridge/http-errors';
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
});
