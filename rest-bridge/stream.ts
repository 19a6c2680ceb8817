import type { Response } from 'express';
import { clientError } from '../schema/client-error';
import type { OperationResult, RequestContext, SubscriptionExecutor } from '../schema/request-context';
import type { PreparedOperation } from '../schema/single-operation';
import { graphQLErrorAnswer, sendAnswer } from './http-errors';
import type { RouteDefinition, StreamMapping } from './types';

/** What the router needs to serve stream routes. */
export interface StreamSupport {
  subscribe: SubscriptionExecutor;
  /** Interval of `: ping` comments on a quiet stream; default 15 s. */
  heartbeatMs?: number;
}

/** Proxies buffer and time out idle responses unless told otherwise; these headers tell them. */
export const EVENT_STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache',
  'X-Accel-Buffering': 'no',
  Connection: 'keep-alive',
} as const;

/** Below most proxies' 30-60 s idle timeouts, with room to spare. */
export const DEFAULT_HEARTBEAT_MS = 15_000;

/** One SSE event: JSON.stringify escapes newlines, so each event is exactly one `data:` line. */
const frame = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;

/** A refused subscription: errors and no data, as graphql-js answers before the first event. */
const isRefusal = (result: OperationResult) => Boolean(result.errors?.length) && !result.data;


/**
 * Serves a stream route. Errors before the first event (unknown ids, invalid input) are ordinary
 * JSON error responses, mapped like any route's; after it, every result's `data` is one event,
 * a failure is the route's error event, and the stream ends. A client that disconnects cancels
 * the subscription at once.
 */
/**
 * Orders streams' work so that streams yet to send their first event go first (the gateway's
 * FirstEventPriority, a piece of speed plumbing); `NO_STREAM_PRIORITY` leaves the order alone.
 */
export interface StreamPriority {
  /** Marks a stream as started; the returned function marks its first event sent. */
  start(): () => void;
  /** Waits, boundedly, while started streams still have their first event to send. */
  holdForStarters(): Promise<void>;
}

/** No ordering: every stream sends as its events come, yielding a turn of the event loop between events. */
export const NO_STREAM_PRIORITY: StreamPriority = { start: () => () => undefined, holdForStarters: () => new Promise((resolve) => setImmediate(resolve)) };

export async function serveStream(
  route: RouteDefinition & { stream: StreamMapping },
  prepared: PreparedOperation,
  variables: Record<string, unknown>,
  ctx: RequestContext,
  res: Response,
  support: StreamSupport,
  logError: (error: unknown) => void,
  priority: StreamPriority,
): Promise<void> {
  const started = priority.start();
  let results: AsyncIterator<OperationResult> | undefined;
  let closed = false;
  const cancel = () => void results?.return?.().catch(() => undefined);
  const onClose = () => {
    closed = true;
    cancel();
  };
  res.once('close', onClose);
  let heartbeat: NodeJS.Timeout | undefined;
  try {
    results = await support.subscribe(prepared, variables, ctx);
    if (closed) return cancel();
    let next = await results.next();
    if (closed) return;
    if (!next.done && isRefusal(next.value)) {
      cancel();
      return sendAnswer(res, graphQLErrorAnswer(next.value.errors!, route, logError));
    }
    // Headers go out with the first event, in one packet.
    res.writeHead(200, EVENT_STREAM_HEADERS);
    heartbeat = setInterval(() => void write(res, ': ping\n\n'), support.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
    let sent = 0;
    try {
      for (; !next.done && !closed; next = await results.next()) {
        const { data, errors } = next.value;
        if (errors?.length) {
          // The error event says what a client may see (schema/client-error.ts); anything internal is the generic 500's words, logged.
          const client = clientError(errors[0]);
          if (!client) logError(new Error(`subscription ${route.operationId} failed: ${errors[0].message}`));
          await write(res, frame(route.stream.errorEvent(client?.message ?? 'Internal server error')));
          break;
        }
        if (!data) continue;
        if (sent++ > 0) await write(res, frame(route.result(data)));
        else {
          // The first event leaves at once, with the headers; the rest waits while other streams
          // still have their first to send (first-event-priority.ts).
          res.write(frame(route.result(data)));
          started();
          await priority.holdForStarters();
        }
      }
    } catch (error) {
      if (closed) return;
      logError(error);
      await write(res, frame(route.stream.errorEvent('Internal server error')));
    }
  } finally {
    started();
    clearInterval(heartbeat);
    res.off('close', onClose);
    if (res.headersSent && !res.writableEnded) {
      cancel();
      flush(res);
      res.end();
    }
  }
}

/**
 * Sends what `write` corked. It must run before `res.end()`: since nodejs/node#50167 (after
 * Node 20) a corked chunked response holds its chunks until uncorked, and `end()` sends the
 * terminating chunk first, so the client's body ended before them and the last events were lost.
 */
function flush(res: Response): void {
  while (res.writableCorked > 0) res.uncork();
}

/**
 * Writes a chunk, waiting while the client's buffer is full so a slow reader cannot grow memory.
 * Chunks written in one turn of the event loop leave in one socket write: a provider that has
 * several suggestions ready would otherwise cost a system call each (the first event is the
 * exception, see serveStream).
 */
function write(res: Response, chunk: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed || res.writableEnded) return resolve();
    if (!res.writableCorked) {
      res.cork();
      setImmediate(() => flush(res));
    }
    if (res.write(chunk)) return resolve();
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
