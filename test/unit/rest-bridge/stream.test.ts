import { testContext } from '../../utils/request-context';
import express from 'express';
import { buildSchema } from 'graphql';
import { errorHandler } from '../../../rest-bridge/http-errors';
import { buildOpenApiDocument } from '../../../rest-bridge/openapi';
import { createRestRouter } from '../../../rest-bridge/router';
import type { OperationResult as SubscriptionResult, SubscriptionExecutor } from '../../../schema/request-context';
import type { RouteDefinition } from '../../../rest-bridge/types';
import { listen, type ListeningApp } from '../../utils/listen';
import { readEventStream } from '../../utils/sse';
import { eventually } from '../../utils/eventually';

const schema = buildSchema(`
  type Tick { n: Int! }
  type Query { ping: Int }
  type Subscription { ticks(id: ID!): Tick! }
`);

const ROUTE: RouteDefinition = {
  method: 'POST',
  path: '/things/{thing_id}/ticks',
  operationId: 'ticks',
  summary: 'Ticks',
  tag: 'Test',
  document: 'subscription Ticks($id: ID!) { ticks(id: $id) { n } }',
  pathParams: { thing_id: 'id' },
  result: (data) => ({ type: 'tick', n: data.ticks.n }),
  stream: { errorEvent: (message) => ({ type: 'error', message }) },
};

/** A scripted subscription: each step a result, an error to throw, or a pause; it records how it ended. */
type Step = SubscriptionResult | Error | 'hang';
function scripted(steps: Step[]) {
  const state = { returned: false, variables: undefined as unknown };
  let waiting: (() => void) | undefined;
  const iterator: AsyncIterator<SubscriptionResult> = {
    async next() {
      const step = steps.shift();
      if (step === undefined || state.returned) return { done: true, value: undefined };
      if (step === 'hang') {
        await new Promise<void>((resolve) => (waiting = resolve));
        return { done: true, value: undefined };
      }
      if (step instanceof Error) throw step;
      return { done: false, value: step };
    },
    async return() {
      state.returned = true;
      waiting?.();
      return { done: true, value: undefined };
    },
  };
  const executor: SubscriptionExecutor = async (_document, variables) => {
    state.variables = variables;
    return iterator;
  };
  return { executor, state };
}

describe('REST bridge stream routes (subscriptions as server-sent events)', () => {
  let server: ListeningApp;
  let executor: SubscriptionExecutor;
  const logged: unknown[] = [];

  beforeAll(async () => {
    const app = express();
    const edge = { context: () => testContext(), run: async () => ({}), logError: (_ctx: unknown, error: unknown) => void logged.push(error) };
    app.use(createRestRouter([ROUTE], schema, edge, { streams: { subscribe: (...args) => executor(...args), heartbeatMs: 40 } }));
    app.use(errorHandler(edge.logError, edge.context));
    server = await listen(app);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    logged.length = 0;
  });

  const post = (init: RequestInit = {}) => fetch(`${server.base}/things/abc/ticks`, { method: 'POST', ...init });

  it('sends each result as one data line, with the headers that stop proxy buffering', async () => {
    const { executor: e, state } = scripted([{ data: { ticks: { n: 1 } } }, { data: { ticks: { n: 2 } } }]);
    executor = e;
    const res = await post();
    expect(res.status).toBe(200);
    expect(Object.fromEntries(['content-type', 'cache-control', 'x-accel-buffering', 'connection'].map((h) => [h, res.headers.get(h)]))).toEqual({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    expect(await res.text()).toBe('data: {"type":"tick","n":1}\n\ndata: {"type":"tick","n":2}\n\n');
    expect(state.variables).toEqual({ id: 'abc' });
  });

  it('answers a refusal before the first event as a plain HTTP error, mapped like any route', async () => {
    executor = scripted([{ errors: [{ message: 'Thing not found', extensions: { code: 'NOT_FOUND' } }] }]).executor;
    let res = await post();
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: 'Thing not found' });

    const issue = { type: 'value_error', loc: ['id'], msg: 'Value error, no ticks here', input: 'abc', ctx: { error: 'no ticks here' } };
    executor = scripted([{ errors: [{ message: 'bad', extensions: { code: 'BAD_USER_INPUT', validation: [issue] } }] }]).executor;
    res = await post();
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ detail: [{ ...issue, loc: ['path', 'thing_id'] }] });
  });

  it('answers 500 JSON, logged, when subscribing fails outright', async () => {
    executor = async () => {
      throw new Error('subgraph unreachable');
    };
    const res = await post();
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ detail: 'Internal server error' });
    expect(logged).toHaveLength(1);
  });

  it('ends with the error event when a result carries errors mid-stream: a coded message as is, anything else generic and logged', async () => {
    executor = scripted([{ data: { ticks: { n: 1 } } }, { errors: [{ message: 'Gone away', extensions: { code: 'NOT_FOUND' } }] }, { data: { ticks: { n: 3 } } }]).executor;
    expect((await readEventStream(await post())).events).toEqual([{ type: 'tick', n: 1 }, { type: 'error', message: 'Gone away' }]);
    expect(logged).toEqual([]);
    executor = scripted([{ data: { ticks: { n: 1 } } }, { errors: [{ message: 'secret stack detail' }] }]).executor;
    expect((await readEventStream(await post())).events).toEqual([{ type: 'tick', n: 1 }, { type: 'error', message: 'Internal server error' }]);
    expect(logged).toHaveLength(1);
  });

  it('ends with the error event when the subscription throws mid-stream', async () => {
    executor = scripted([{ data: { ticks: { n: 1 } } }, new Error('connection reset')]).executor;
    expect((await readEventStream(await post())).events).toEqual([{ type: 'tick', n: 1 }, { type: 'error', message: 'Internal server error' }]);
    expect(logged).toHaveLength(1);
  });

  it('sends `: ping` comments while a stream is quiet', async () => {
    const { executor: e, state } = scripted([{ data: { ticks: { n: 1 } } }, 'hang']);
    executor = e;
    const abort = new AbortController();
    const res = await post({ signal: abort.signal });
    setTimeout(() => abort.abort(), 200);
    const read = await readEventStream(res, { abort });
    expect(read.events).toEqual([{ type: 'tick', n: 1 }]);
    expect(read.comments.filter((c) => c.trim() === 'ping').length).toBeGreaterThanOrEqual(2);
    await eventually(() => state.returned);
  });

  it('cancels the subscription as soon as the client disconnects', async () => {
    const { executor: e, state } = scripted([{ data: { ticks: { n: 1 } } }, 'hang']);
    executor = e;
    const abort = new AbortController();
    const res = await post({ signal: abort.signal });
    await readEventStream(res, { abort, stopAfter: (events) => events.length === 1 });
    await eventually(() => state.returned, { what: 'subscription cancelled' });
  });

  it('refuses, at start-up, a subscription without `stream`, a query with it, or stream routes without support', () => {
    const edge = { context: () => testContext(), run: async () => ({}), logError: () => undefined };
    const streams = { subscribe: scripted([]).executor };
    expect(() => createRestRouter([{ ...ROUTE, stream: undefined }], schema, edge, { streams })).toThrow(/stream routes, and only they/);
    expect(() => createRestRouter([{ ...ROUTE, document: 'query { ping }', pathParams: {} }], schema, edge, { streams })).toThrow(/stream routes, and only they/);
    expect(() => createRestRouter([ROUTE], schema, edge)).toThrow(/need stream support/);
  });

  it('documents a stream route as text/event-stream with the event schema', () => {
    const doc = buildOpenApiDocument([{ ...ROUTE, responseSchema: { type: 'object' } }], schema) as any;
    const content = doc.paths['/things/{thing_id}/ticks'].post.responses['200'].content;
    expect(Object.keys(content)).toEqual(['text/event-stream']);
    expect(content['text/event-stream']['x-event-schema']).toEqual({ type: 'object' });
    expect(doc.paths['/things/{thing_id}/ticks'].post.responses['404']).toBeDefined();
  });
});
