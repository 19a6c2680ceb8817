import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Express, Request, RequestHandler, Response } from 'express';
import { GraphQLError, type ExecutionResult, type FormattedExecutionResult } from 'graphql';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import { ClientClosedRequestError, DomainError, ForbiddenError, RateLimitedError, UnauthenticatedError, ValidationError } from '../../schema/errors';
import type { RequestContext } from '../../schema/request-context';
import type { SubscriptionEvents } from '../graphql/subscription-router';
import type { SubscriptionGate } from '../graphql/subscription-gate';
import { websocketConnections } from '../metrics/instruments';
import { edgeContext } from './request-context';

/** What the WebSocket endpoint needs from the edge: the HTTP path's own authentication and the subscription gate `/graphql/stream` uses. */
export interface WebSocketEndpointOptions {
  /** The express app: upgrade requests are read as its requests (`ip` under its `trust proxy`, `get`). */
  app: Express;
  /** The tenant-scoped authentication of every HTTP route (auth.ts), run as it is. */
  authenticate: RequestHandler;
  gate: SubscriptionGate;
  log: Logger;
  /** This service's own origin (PUBLIC_URL's): the only one whose pages may use the session cookie here. */
  ownOrigin: string;
  /** Largest message a client may send (the HTTP body limit); a larger one closes the socket with 1009. */
  maxPayloadBytes: number;
  /** Time a client has after the upgrade to send `connection_init` (the HTTP headers timeout). */
  connectionInitWaitMs: number;
  /** Interval of the server's pings; a client that has not answered one by the next is cut. graphql-ws's 12 s by default. */
  keepAliveMs?: number;
}

/** The running endpoint. */
export interface WebSocketEndpoint {
  /** Refuses new upgrades and closes every socket with 1001 (going away), cancelling their subscriptions. */
  close(): Promise<void>;
}

/** An acknowledged connection: the credentials it authenticated with, run again for each subscription. */
interface Connection {
  headers: Record<string, string>;
  upgrade: IncomingMessage;
  /** Aborted when the socket closes: the signal of every subscription's context. */
  closed: AbortController;
}

/** How long a shutdown waits for clients to answer the 1001 close frame before cutting their sockets. */
const CLOSE_WAIT_MS = 1_000;

/** graphql-ws's close code for "too many" (its own too many `connection_init`s): a budget or the tenant's connection cap. */
const TOO_MANY = 4429;

/** A WebSocket upgrade to `/graphql`; graphql-ws then closes any subprotocol but `graphql-transport-ws` with 4406. */
const isGraphQLUpgrade = (req: IncomingMessage) => (req.headers.upgrade ?? '').toLowerCase() === 'websocket' && (req.url ?? '').split('?')[0] === '/graphql';

/**
 * GraphQL over WebSocket (graphql-ws, subprotocol `graphql-transport-ws`) on `/graphql`, beside
 * graphql-sse on `/graphql/stream`: a connection authenticates once at `connection_init` with the
 * HTTP path's own `authenticate` (a key, a bearer session, or the session cookie of a page of our
 * own origin), and every `subscribe` authenticates again (one budget unit, a revoked key or ended
 * session seen) and opens through the same subscription gate, so scopes, operation limits, the
 * tenant's stream cap and metrics are one for both transports. Queries and mutations are refused:
 * they belong to `/graphql` over HTTP, where their cost is charged (graphql-charge.ts).
 * Only upgrades to `/graphql` are taken; any other upgrade request reaches express as before.
 */
export function serveWebSocketSubscriptions(server: Server, options: WebSocketEndpointOptions): WebSocketEndpoint {
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayloadBytes });
  const connections = new WeakMap<WebSocket, Connection>();
  let closing = false;

  const authenticated = (connection: Connection): Promise<RequestContext> => {
    const req = asExpressRequest(options.app, connection.upgrade, connection.headers);
    const ctx = edgeContext(options.log, connection.closed.signal, req.ip);
    const res = { locals: { ctx }, headersSent: false, setHeader: () => undefined } as unknown as Response;
    return new Promise((resolve, reject) => options.authenticate(req, res, (error?: unknown) => (error ? reject(error) : resolve(ctx))));
  };

  const graphqlWs = useServer<Record<string, unknown> | undefined>(
    {
      connectionInitWaitTimeout: options.connectionInitWaitMs,
      onConnect: async ({ extra: { socket, request }, connectionParams }) => {
        const headers = credentialsOf(request, connectionParams);
        const origin = request.headers.origin;
        // The cookie is ambient: a page of another origin must not ride a signed-in person's socket (cross-site WebSocket hijacking).
        if (headers.cookie && origin && origin !== options.ownOrigin) {
          delete headers.cookie;
          if (!headers['api-key'] && !headers.authorization) {
            socket.close(CloseCode.Forbidden, "The session cookie is accepted from this service's own pages only; send connectionParams.authorization");
            return false;
          }
        }
        const connection: Connection = { headers, upgrade: request, closed: new AbortController() };
        let ctx: RequestContext;
        try {
          ctx = await authenticated(connection);
        } catch (error) {
          refuse(socket, error, options.log);
          return false;
        }
        // Gone while authenticating: nothing to hold a slot for (its 'close' has been and gone).
        if (socket.readyState !== socket.OPEN) return false;
        const release = options.gate.slots.connections.take(ctx.tenantId!);
        if (!release) {
          socket.close(TOO_MANY, `This tenant has ${options.gate.slots.connections.max} WebSocket connections open, the most it may`);
          return false;
        }
        websocketConnections.inc();
        const opened = Date.now();
        socket.once('close', (code: number) => {
          // The access line of a connection, as every HTTP request has one.
          ctx.log.info({ route: '/graphql', transport: 'ws', tenantId: ctx.tenantId, closeCode: code, durationMs: Date.now() - opened }, 'graphql-ws connection closed');
          release();
          websocketConnections.dec();
          connection.closed.abort(new ClientClosedRequestError());
        });
        connections.set(socket, connection);
        return true;
      },
      onSubscribe: async ({ extra: { socket } }, _id, payload) => {
        const connection = connections.get(socket);
        if (!connection) return [new GraphQLError('Not connected', { extensions: { code: 'UNAUTHENTICATED' } })];
        let ctx: RequestContext;
        try {
          ctx = await authenticated(connection);
        } catch (error) {
          // A key revoked or a session ended since the connection: the connection ends too.
          if (error instanceof RateLimitedError) return [new GraphQLError(error.message, { extensions: { code: error.code, ...error.extensions() } })];
          refuse(socket, error, options.log);
          return [new GraphQLError('Not authenticated', { extensions: { code: 'UNAUTHENTICATED' } })];
        }
        const opened = await options.gate.open({ query: payload.query, operationName: payload.operationName, variables: payload.variables }, ctx, 'ws');
        if ('refused' in opened) return [new GraphQLError(opened.refused.message, { extensions: opened.refused.extensions })];
        // graphql-ws runs what onSubscribe hands it with `subscribe` below: the gate's events, carried in the context value.
        return { schema: options.gate.schema, document: opened.document, operationName: payload.operationName, variableValues: payload.variables, contextValue: { events: opened.events } };
      },
      subscribe: (args) => (args.contextValue as { events: SubscriptionEvents }).events as AsyncGenerator<ExecutionResult>,
      // Never reached: the gate opens subscriptions only.
      execute: () => ({ errors: [new GraphQLError('Only subscriptions are served here; send queries and mutations to /graphql over HTTP')] }),
      // Results are already in their client form (plain errors, not GraphQLError instances): sent as they are.
      onNext: (_ctx, _id, _payload, _args, result) => result as FormattedExecutionResult,
    },
    wss,
    options.keepAliveMs,
  );

  // Node hands an upgrade request to 'upgrade' only when this says so; any other goes to express as a plain request.
  (server as Server & { shouldUpgradeCallback: (req: IncomingMessage) => boolean }).shouldUpgradeCallback = (req) => !closing && isGraphQLUpgrade(req);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    wss.handleUpgrade(req, socket, head, (ws) => {
      wss.emit('connection', ws, req);
      // A socket's error is its client's doing (a message over maxPayload, a broken frame) and ws
      // has already closed it with the code that says so (1009, 1002): graphql-ws's own listener
      // would print it to the console as a server fault and try to close it again with 4500.
      ws.removeAllListeners('error');
      ws.on('error', (error) => options.log.debug({ err: error }, 'graphql-ws socket closed by its client\'s error'));
    });
  });

  return {
    async close() {
      closing = true;
      const open = [...wss.clients];
      // graphql-ws's dispose closes every socket with 1001; their close cancels their subscriptions.
      await graphqlWs.dispose();
      // A client that does not answer the close frame would hold the server's close for ws's 30 s: cut after a moment.
      const waited = new AbortController();
      const answered = Promise.all(open.map((ws) => (ws.readyState === ws.CLOSED ? null : new Promise((done) => ws.once('close', done)))));
      await Promise.race([answered, sleep(CLOSE_WAIT_MS, undefined, { signal: waited.signal }).catch(() => undefined)]);
      waited.abort();
      for (const ws of open) ws.terminate();
    },
  };
}

/**
 * The credentials of a connection as the HTTP path's headers: `tenant`, `apiKey` and
 * `authorization` from `connectionParams` (what browsers can send: they set no headers on an
 * upgrade), over the upgrade request's own `tenant`, `api-key` and `authorization` headers
 * (what other clients may send instead), and the cookie and origin the browser sent.
 */
function credentialsOf(request: IncomingMessage, params: Record<string, unknown> | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ['tenant', 'api-key', 'authorization', 'cookie', 'origin', 'x-forwarded-for']) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const param = (key: string) => (typeof params?.[key] === 'string' ? (params[key] as string) : undefined);
  const fromParams: Record<string, string | undefined> = { tenant: param('tenant'), 'api-key': param('apiKey'), authorization: param('authorization') };
  for (const [name, value] of Object.entries(fromParams)) if (value !== undefined) headers[name] = value;
  return headers;
}

/** The upgrade request as an express request of `app` (so `ip` and `get` are express's own), carrying `headers` and method GET (no CSRF token is asked of GETs). */
function asExpressRequest(app: Express, upgrade: IncomingMessage, headers: Record<string, string>): Request {
  return Object.create(app.request, {
    headers: { value: headers },
    socket: { value: upgrade.socket },
    method: { value: 'GET' },
    url: { value: upgrade.url },
  }) as Request;
}

/** Close codes of graphql-ws's conventions for an authentication that failed: 4401, 4403, 4429; anything unexpected is logged and 4500. */
function refuse(socket: WebSocket, error: unknown, log: Logger): void {
  if (error instanceof UnauthenticatedError) return socket.close(CloseCode.Unauthorized, closeReason(error.message));
  if (error instanceof ValidationError) return socket.close(CloseCode.Unauthorized, 'Credentials required: connectionParams { tenant, apiKey } or { authorization }');
  if (error instanceof ForbiddenError) return socket.close(CloseCode.Forbidden, closeReason(error.message));
  if (error instanceof RateLimitedError) return socket.close(TOO_MANY, closeReason(`${error.message}; retry after ${error.retryAfterSeconds} s`));
  if (!(error instanceof DomainError)) log.error({ err: error }, 'graphql-ws connection failed');
  socket.close(CloseCode.InternalServerError, 'Internal server error');
}

/** A close frame's reason holds at most 123 bytes. */
function closeReason(message: string): string {
  const bytes = Buffer.from(message);
  return bytes.length <= 123 ? message : bytes.subarray(0, 120).toString('utf8').replace(/\uFFFD$/, '') + '...';
}
