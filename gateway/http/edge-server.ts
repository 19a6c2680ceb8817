import { createServer, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { withServerSpans } from '../../platform/tracing/server-span';
import type { EdgeSettings } from '../config-readers';
import { contextOf } from './request-context';

/**
 * How often node looks for requests past their timeouts; its default (30 s) would let trickled
 * headers live up to half a minute past HTTP_HEADERS_TIMEOUT_SECONDS. A walk over the open
 * connections once a second costs nothing next to serving them.
 */
const TIMEOUT_CHECK_MS = 1_000;

/**
 * The HTTP server of the edge: a client has seconds, not minutes, to send a request's headers
 * (`headersTimeout`) and its whole body (`requestTimeout`), and one client address holds at most
 * `maxConnectionsPerAddress` connections, an idle one kept `keepAliveTimeoutMs`. Both timeouts end when the request has arrived, so an
 * answer that lasts (a REST or GraphQL event stream) is not cut by them. A request cut by a
 * timeout is answered 408 in JSON by the server's `clientError` handler.
 */
export function createEdgeServer(handler: RequestListener, settings: EdgeSettings): Server {
  const server = createServer({ headersTimeout: settings.headersTimeoutMs, requestTimeout: settings.requestTimeoutMs, connectionsCheckingInterval: TIMEOUT_CHECK_MS }, withServerSpans(handler));
  server.keepAliveTimeout = settings.keepAliveTimeoutMs;
  if (settings.maxConnectionsPerAddress > 0) capConnectionsPerAddress(server, settings.maxConnectionsPerAddress);
  return server;
}

/**
 * Closes a connection past `max` open ones from its client address at once, before it is read:
 * many slow connections from one address can no longer hold the server's sockets and memory.
 * Behind a reverse proxy every connection comes from the proxy's address, so the default is high
 * (docs/operations.md).
 */
function capConnectionsPerAddress(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) return void socket.destroy();
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/**
 * Placed before the error handler: a request of nobody yet (no tenant authenticated: a 401, 404,
 * 413 or 429 before any body was read) refused while its body is still arriving is answered with
 * `Connection: close`, so node closes the connection after the answer instead of reading the rest
 * of the body to keep it alive. A tenant's refused request keeps node's default (the rest is read
 * and dropped, unparsed, within HTTP_REQUEST_TIMEOUT_SECONDS): a client still writing its upload
 * when the connection closed would get a broken pipe instead of its 413.
 */
export function closeUnreadBodies(error: unknown, req: Request, res: Response, next: NextFunction): void {
  if (!req.complete && !res.headersSent && !contextOf(res).tenantId) res.setHeader('Connection', 'close');
  next(error);
}
