import type { Server } from 'node:http';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type Response } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { docsRouter } from '../rest-bridge/docs';
import { errorHandler, notFound } from '../rest-bridge/http-errors';
import { buildOpenApiDocument } from '../rest-bridge/openapi';
import { createRestRouter } from '../rest-bridge/router';
import { ROUTES } from '../rest-bridge/routes';
import type { RouteDefinition } from '../rest-bridge/types';
import { ApiKeyService } from '../subgraphs/tenant/services/api-key.service';
import { accessLog } from './access-log';
import { adminRouter } from './admin/admin.router';
import { AdminService } from './admin/admin.service';
import { authenticate, limitAnonymous } from './auth';
import type { Config } from './config';
import { startGraphQL } from './graphql';
import { PostgresIdempotencyStore } from './idempotency-store';
import { KeyCache } from './key-cache';
import type { Platform } from './platform';
import { RateLimits } from './rate-limit';
import { contextOf, requestContextMiddleware } from './request-context';
import { localStreamHandler, proxyStreamHandler } from './sse';
import { subscriptionOwners } from './subscription-owners';

/** The HTTP host once listening. */
export interface RunningApp {
  server: Server;
  /** Base URL it listens on. */
  url: string;
  admin: AdminService;
  /** Drains HTTP and SSE, then stops the gateway; the platform (ORM, database) is closed by its owner after. */
  close(): Promise<void>;
}

/** Options for tests and embedders; production uses the defaults. */
export interface AppOptions {
  /** The REST route table; the contract's by default. */
  routes?: RouteDefinition[];
}

/**
 * Assembles the edge in the order STYLE.md takes from medplum: security headers, request
 * context, request log, public routes, operator routes, authentication and rate limit, body
 * parsers, routers, then one error handler.
 */
export async function startApp(config: Config, platform: Platform, log: Logger, options: AppOptions = {}): Promise<RunningApp> {
  const routes = options.routes ?? ROUTES;
  const limits = new RateLimits(config.rateLimit, config.redisUrl);
  const keys = new KeyCache((apiKey) => new ApiKeyService(platform.tenantOrm.em.fork() as never).verify(apiKey));
  const admin = new AdminService(platform.tenantOrm, platform.seeders, () => keys.clear());
  const graph = await startGraphQL(config, platform.subgraphs, log);
  const logError = (res: Response, error: unknown) => contextOf(res).log.error({ err: error }, 'request failed');
  const run = async (document: string, variables: Record<string, unknown>, res: Response) => {
    const response = await graph.server.executeOperation({ query: document, variables }, { contextValue: contextOf(res) });
    if (response.body.kind !== 'single') throw new Error('incremental delivery is not used by REST routes');
    return response.body.singleResult as { data?: Record<string, unknown> | null; errors?: any[] };
  };
  const openApi = buildOpenApiDocument(routes, graph.apiSchema, { serverUrl: config.publicUrl });
  const json = express.json({ limit: config.bodyLimitBytes, strict: false });
  const owners = subscriptionOwners(['tenant', 'billing', 'analytics', 'notes']);

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  // No upgrade-insecure-requests: a plain-HTTP dev server reached by a host name would lose /docs.
  app.use(helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }));
  app.use(requestContextMiddleware(log));
  app.use(accessLog());

  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', async (_req, res) => {
    const ok = await platform.tenantOrm.em.getConnection().execute('select 1').then(() => true, () => false);
    res.status(ok ? 200 : 503).json(ok ? { status: 'ready' } : { detail: 'Database unavailable' });
  });
  app.get('/openapi.json', (_req, res) => void res.json(openApi));
  app.use(docsRouter());
  if (config.operatorToken) app.use('/admin', json, adminRouter(admin, config.operatorToken, limits));

  const tenantScoped = authenticate(keys, limits);
  app.use('/graphql/stream', tenantScoped, json, platform.subgraphs ? localStreamHandler(platform.subgraphs, owners) : proxyStreamHandler(config, owners));
  app.use('/graphql', tenantScoped, json, expressMiddleware(graph.server, { context: async ({ res }) => contextOf(res) }));
  const idempotency = new PostgresIdempotencyStore(platform.gatewayOrm);
  const pruneTimer = setInterval(() => void idempotency.prune().catch((error) => log.warn({ err: error }, 'idempotency prune failed')), 3_600_000).unref();
  const rest = createRestRouter(routes, graph.apiSchema, run, logError, { idempotency });
  const restPaths = routes.map((r) => r.path.replace(/\{([^}]+)\}/g, ':$1'));
  app.use(restPaths, tenantScoped, json);
  app.use(rest);

  app.use(limitAnonymous(limits), notFound);
  app.use(errorHandler(logError));

  const server = app.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    admin,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive and SSE sockets would hold close() open for seconds (STACK.md).
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), 2_000).unref();
      await closed;
      clearInterval(pruneTimer);
      await graph.server.stop();
      await limits.close();
    },
  };
}
