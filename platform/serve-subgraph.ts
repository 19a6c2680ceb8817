import { isIP } from 'node:net';
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { ExecutionResult } from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/express';
import pino, { type Logger } from 'pino';
import { IDENTITY_HEADERS, type RequestIdentity, type SubgraphContext } from './context';
import { parseActor } from '../schema/actor';
import { formatResult, formatSubgraphError, reportCauses } from './format-error';
import { DEFAULT_SHUTDOWN_GRACE_MS, drainOnShutdown } from './http-drain';
import { isUuid } from './ids';
import { errorLogOptions } from './loggable-error';
import { requestSignal } from './request-signal';
import type { RunningSubgraph } from './subgraph-runtime';
import { setHttpRoute } from './tracing/http-route';
import { withServerSpans } from './tracing/server-span';
import { inSubgraphSpan } from './tracing/subgraph-span';
import { tagTenant } from './tracing/tenant-attribute';
import { requestErrorReporter } from './error-reporters';

const VALID_IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Reads the identity the gateway forwarded; a tenant id that is no UUID cannot be a tenant. With
 * the response, the request's signal too, made here as at the gateway's edge: it aborts when the
 * gateway abandons its fetch (its client went away) and closes the connection.
 */
function identityOf(req: { headers: Record<string, string | string[] | undefined> }, res?: ServerResponse): RequestIdentity {
  const tenant = req.headers[IDENTITY_HEADERS.tenant];
  const requestId = req.headers[IDENTITY_HEADERS.requestId];
  const address = req.headers[IDENTITY_HEADERS.clientAddress];
  const idempotencyKey = req.headers[IDENTITY_HEADERS.idempotencyKey];
  return {
    tenantId: typeof tenant === 'string' && isUuid(tenant) ? tenant : null,
    requestId: typeof requestId === 'string' ? requestId.slice(0, 128) : 'internal',
    actor: parseActor(req.headers[IDENTITY_HEADERS.actor]),
    clientAddress: typeof address === 'string' && isIP(address) ? address : null,
    // The bridge forwards only a key it validated (1-255 printable ASCII); anything else is no key.
    idempotencyKey: typeof idempotencyKey === 'string' && VALID_IDEMPOTENCY_KEY.test(idempotencyKey) ? idempotencyKey : null,
    signal: res ? requestSignal(res) : undefined,
  };
}

/**
 * Runs the rest of a `/graphql` request inside the subgraph span (subgraph-span.ts), a child of
 * the gateway's fetch through the `traceparent` the gateway sent; the tenant comes from the identity header.
 */
function traceOperation(name: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    setHttpRoute('/graphql');
    const { tenantId } = identityOf(req);
    if (tenantId) tagTenant(tenantId);
    const operationName = typeof req.body?.operationName === 'string' ? req.body.operationName.slice(0, 200) : null;
    void inSubgraphSpan({ subgraph: name, tenantId, operationName }, () =>
      new Promise<void>((resolve) => {
        res.once('close', resolve);
        next();
      }),
    );
  };
}

/** Where a subgraph listens, the gateway's shared secret, and (for tests) its logger. */
export interface ServeOptions {
  port: number;
  host: string;
  secret: string;
  log?: Logger;
}

/**
 * Runs one subgraph as its own HTTP service (distributed mode): `/graphql`, `/graphql/stream`,
 * `/internal/seed` and `/healthz`. Everything but health refuses calls without the gateway's
 * shared secret, as Apollo's subgraph template does with its router secret.
 */
export async function serveSubgraph(subgraph: RunningSubgraph, options: ServeOptions): Promise<{ server: Server; close(graceMs?: number): Promise<void> }> {
  const log = options.log ?? pino({ base: { service: subgraph.name }, timestamp: pino.stdTimeFunctions.isoTime, ...errorLogOptions });
  const app = express();
  app.disable('x-powered-by');
  const server = createServer(withServerSpans(app)).listen(options.port, options.host);
  // The gateway reuses idle connections (its fetcher's agent lets one idle ~4 s); a server that
  // closed one at node's default 5 s could race a request just sent on it ("socket hang up", seen
  // in CI). Idle connections outlive the client's, so the client always closes first.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const drain = drainOnShutdown(server);

  const apollo = new ApolloServer<SubgraphContext>({
    schema: subgraph.schema,
    includeStacktraceInErrorResponses: false,
    formatError: formatSubgraphError,
    // The service's own shutdown drains and stops Apollo (close below); Apollo's handler would stop it
    // first, leave that stop waiting, then kill the process with the signal again (ignored by a container's PID 1).
    stopOnTerminationSignals: false,
    plugins: [
      reportCauses(requestErrorReporter(log, 'resolver failed')),
      ApolloServerPluginLandingPageDisabled(),
      // The gateway reports no usage to Apollo, so federated traces (ftv1) would be computed for nobody.
      ApolloServerPluginInlineTraceDisabled(),
    ],
  });
  await apollo.start();

  app.get('/healthz', (_req, res) => void res.json({ status: 'ok', service: subgraph.name }));
  const expected = digest(options.secret);
  app.use((req: Request, res: Response, next: NextFunction) => {
    const presented = req.get(IDENTITY_HEADERS.secret) ?? '';
    if (timingSafeEqual(digest(presented), expected)) return next();
    res.status(401).json({ detail: 'This subgraph accepts calls from the gateway only' });
  });
  // A 2 MiB logo travels from the gateway as base64 inside the GraphQL variables (~2.8 MB of JSON).
  app.use(express.json({ limit: '4mb' }));
  app.post('/internal/seed', async (req, res) => {
    const tenantId = req.body?.tenantId;
    if (typeof tenantId !== 'string' || !isUuid(tenantId)) return void res.status(422).json({ detail: 'tenantId must be a UUID' });
    await subgraph.seedDemo(tenantId);
    res.status(204).end();
  });
  app.use('/graphql/stream', (_req, _res, next) => {
    setHttpRoute('/graphql/stream');
    next();
  });
  app.use(
    '/graphql/stream',
    createHandler({
      schema: subgraph.schema,
      authenticate: () => null,
      context: (req) => subgraph.context(identityOf(req.raw)) as never,
      // graphql-sse has no formatError: without this a domain error would lose its code on the way to the gateway.
      onNext: (ctx, _req, result) =>
        formatResult(result as ExecutionResult, (error, requestId) => log.error({ err: error, requestId }, 'subscription failed'), (ctx as unknown as SubgraphContext).requestId),
    }),
  );
  app.use('/graphql', traceOperation(subgraph.name));
  app.use('/graphql', expressMiddleware(apollo, { context: async ({ req, res }) => subgraph.context(identityOf(req, res)) }));
  app.use((_req, res) => void res.status(404).json({ detail: 'Not Found' }));
  // What the body parser refuses (malformed JSON, a false Content-Encoding) is JSON too, never express's HTML page and stack.
  app.use((error: { status?: unknown; expose?: unknown }, _req: Request, res: Response, _next: NextFunction) => {
    const status = error?.expose && typeof error.status === 'number' && error.status >= 400 && error.status < 500 ? error.status : 500;
    if (status === 500) log.error({ err: error }, 'request failed');
    if (!res.headersSent) res.status(status).json({ detail: status === 500 ? 'Internal server error' : 'The request could not be read' });
  });

  return {
    server,
    /** Drains HTTP (streams at once, other requests within `graceMs`), then stops Apollo Server. */
    async close(graceMs = DEFAULT_SHUTDOWN_GRACE_MS) {
      await drain(graceMs);
      await apollo.stop();
    },
  };
}
