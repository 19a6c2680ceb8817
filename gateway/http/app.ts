import type { Server } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import type { Logger } from 'pino';
import { docsRouter } from '../../rest-bridge/docs';
import { answerClientError, errorHandler, notFound } from '../../rest-bridge/http-errors';
import { isJsonRequest, readNonJsonBody, refuseBadText, refuseDeepJson, refuseLongUrl } from '../../rest-bridge/request-guards';
import { createRestRouter, type RouteGuards } from '../../rest-bridge/router';
import { FirstEventPriority } from '../../platform/speed/first-event-priority';
import { SUBGRAPH_NAMES } from '../../platform/subgraph-definition';
import { ROUTES } from '../../rest-bridge/routes';
import type { RouteDefinition } from '../../rest-bridge/types';
import type { RequestContext } from '../../schema/request-context';
import { drainOnShutdown, waitUntilIdle } from '../../platform/http-drain';
import { accessLog, routeNamed } from './access-log';
import { API_HEADERS, PAGE_HEADERS, securityHeaders } from './security-headers';
import { assetsRouter } from './assets';
import { adminRouter, operatorOnly } from '../admin/admin.router';
import { auditExportRouter } from '../audit/audit-export.router';
import { AdminService } from '../admin/admin.service';
import { authenticate, limitAnonymous, limitPublic } from './auth';
import { chargeGraphQL, operationCharge } from '../graphql/graphql-charge';
import type { Config } from '../config';
import { startGraphQL } from '../graphql/graphql';
import { platformOpenApi } from './openapi-document';
import { PostgresIdempotencyStore } from '../database/idempotency-store';
import { KeyCache } from './key-cache';
import { metricsRoute } from '../metrics/metrics-route';
import { watchFairQueues } from '../metrics/fair-queue-metrics';
import type { Platform } from '../database/platform';
import { RateLimits } from './rate-limit';
import { listenForKeyRevocations } from './key-revocation-listener';
import { relayKeyRevocations } from '../cluster/key-revocation-relay';
import { contextOf, requestContextMiddleware } from './request-context';
import { streamHandler } from '../graphql/sse';
import { subscriptionGate } from '../graphql/subscription-gate';
import { serveWebSocketSubscriptions } from './ws-subscriptions';
import { graphiqlRouter } from './graphiql';
import { consoleRouter } from './console';
import { authRouter } from './auth-routes';
import { oidcRouter } from './oidc-routes';
import { OidcDiscovery } from './oidc-discovery';
import { crossOriginPages } from './cross-origin';
import { documentHandler } from './public-document';
import { refuseOtherMethods } from './method-guard';
import { PLATFORM_PATHS } from './platform-paths';
import { closeUnreadBodies, createEdgeServer } from './edge-server';
import { graphQLErrorHandler } from './graphql-errors';
import { subscriptionOwners } from '../graphql/subscription-owners';
import { SubscriptionRouter } from '../graphql/subscription-router';
import { httpTransport, inProcessTransport } from '../graphql/subscription-transports';

/** The HTTP host once listening. */
export interface RunningApp {
  server: Server;
  /** Base URL it listens on. */
  url: string;
  admin: AdminService;
  /**
   * Drains HTTP (event streams cut at once, other requests given SHUTDOWN_GRACE_SECONDS), waits for
   * in-process subgraph work, then stops the gateway; the platform (ORM, database) is closed by its owner after.
   */
  close(): Promise<void>;
}

/** Options for tests and embedders; production uses the defaults. */
export interface AppOptions {
  /** The REST route table; the contract's by default. */
  routes?: RouteDefinition[];
  /** Interval of `: ping` comments on REST event streams; 15 s by default, shorter in tests. */
  streamHeartbeatMs?: number;
  /** A worker of WEB_CONCURRENCY > 1: rate-limit counts live in the primary and revocations reach every worker. */
  clustered?: boolean;
}

/**
 * Assembles the edge in the order of docs/architecture.md (Flow of a request), after medplum: security headers, request
 * context, request log, the REST router (each route with its own authentication and budget, admission
 * query, then body parsers), the 405s of the platform's paths, public routes, operator routes, the
 * GraphQL endpoints, then one error handler.
 */
export async function startApp(config: Config, platform: Platform, log: Logger, options: AppOptions = {}): Promise<RunningApp> {
  const routes = options.routes ?? ROUTES;
  const limits = new RateLimits(config.rateLimit, config.redisUrl, { clustered: options.clustered ?? false, workers: config.workers, publicPoints: config.edge.publicDocumentsPerWindow, redisTimeoutMs: config.redisTimeoutMs, log });
  const keys = new KeyCache((apiKey) => platform.tenants.verifyKey(apiKey));
  const revocations = options.clustered ? relayKeyRevocations(() => keys.clear()) : null;
  const admin = new AdminService(platform.tenants, platform.seeders, async () => {
    keys.clear();
    if ((await revocations?.announce()) === 'unconfirmed') {
      log.warn('key revocation not confirmed by every worker in time; a worker may accept the key until its cache entry expires (10 s)');
    }
  });
  const graph = await startGraphQL(config, platform.subgraphs, log, routes.flatMap((route) => [...(route.stream ? [] : [route.document]), ...(route.admission ? [route.admission] : [])]));
  // The in-process subgraphs' fair queues, counted like the requests (docs/metrics.md); a subgraph service's are its own.
  const unwatchQueues = watchFairQueues(platform.subgraphs?.flatMap((subgraph) => subgraph.fairQueues) ?? []);
  const logError = (ctx: RequestContext, error: unknown) => ctx.log.error({ err: error }, 'request failed');
  const openApi = platformOpenApi(routes, graph.apiSchema, config.publicUrl);
  // What FastAPI reads as JSON (no content type included), never nested deeper than any contract body needs.
  const json = [express.json({ limit: config.bodyLimitBytes, strict: false, type: isJsonRequest }), refuseDeepJson];
  const owners = subscriptionOwners([...SUBGRAPH_NAMES]);
  const subscriptions = new SubscriptionRouter(owners, platform.subgraphs ? inProcessTransport(platform.subgraphs) : httpTransport(config.subgraphUrls, config.internalSecret!));

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  // Express's simple parser silently drops parameters past the 1,000th; the URL cap (414) bounds them instead.
  app.set('query parser', (text: string) => parseQuery(text, '&', '=', { maxKeys: 0 }));
  // The API's headers on every answer; the pages' routers add a page's over them.
  app.use(securityHeaders(API_HEADERS));
  const pageHeaders = securityHeaders(PAGE_HEADERS);
  app.use(requestContextMiddleware(log));
  // Preflights of tenants' own web origins are answered here; any other OPTIONS goes on to the JSON 404.
  app.use(crossOriginPages(platform.tenants));
  app.use(accessLog(log));
  app.use(refuseLongUrl);

  const tenantScoped = authenticate(keys, limits, { tenants: platform.tenants, lifetimes: config.sessions, ownOrigin: new URL(config.publicUrl).origin });
  const idempotency = new PostgresIdempotencyStore(platform.gatewayOrm, config.idempotencyLockSeconds, log);
  const pruneTimer = setInterval(() => void idempotency.prune().catch((error) => log.warn({ err: error }, 'idempotency prune failed')), 3_600_000).unref();
  const streams = { subscribe: subscriptions.subscribe.bind(subscriptions), heartbeatMs: options.streamHeartbeatMs };
  const anonymous = limitAnonymous(limits);
  // An anonymous route's body is read only after the address's budget and the secret in its path (a campaign's
  // webhook key, asked of its subgraph by the route's admission query), and never beyond a cap of its own.
  const publicJson = [express.json({ limit: config.edge.publicBodyLimitBytes, strict: false, type: isJsonRequest }), refuseDeepJson];
  const guards = (route: RouteDefinition): RouteGuards => ({
    // Public routes (a secret in the path stands in for credentials) count against the client address, like failed authentications.
    admit: [route.auth === 'public' ? anonymous : tenantScoped],
    read: [
      ...(route.auth === 'public' ? publicJson : json),
      ...(route.body ? readNonJsonBody(route.auth === 'public' ? config.edge.publicBodyLimitBytes : config.bodyLimitBytes) : []),
    ],
  });
  const rest = createRestRouter(routes, graph.apiSchema, { context: contextOf, run: graph.runOperation, logError, charge: operationCharge(limits, graph.apiSchema), authorize: (document, operation, ctx) => graph.scopes.authorize(document, operation, ctx.scopes ?? null) }, { idempotency, streams, guards, streamPriority: config.plumbing.has('first-event-priority') ? new FirstEventPriority() : undefined });
  // The router would answer OPTIONS on a known path itself (200, plain-text `Allow`, uncounted); no
  // route of the contract is an OPTIONS one, so it gets the JSON 404 of any unknown route instead.
  // First among the routes: no contract path is one of the platform's own (health, docs, IDE,
  // assets, admin, metrics, /graphql), so its place changes no answer, and the hot path walks
  // one router instead of a dozen layers; any other path falls through to them.
  app.use((req, res, next) => (req.method === 'OPTIONS' ? next() : rest(req, res, next)));
  app.use(refuseOtherMethods(PLATFORM_PATHS.filter((entry) => config.operatorToken || !entry.operator), anonymous));

  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', async (_req, res) => {
    const ok = await platform.gatewayOrm.em.getConnection().execute('select 1').then(() => true, () => false);
    res.status(ok ? 200 : 503).json(ok ? { status: 'ready' } : { detail: 'Database unavailable' });
  });
  // Public documents: serialised here once, compressed once, answered with validators under the address's budget for them.
  const publicBudget = limitPublic(limits);
  app.get('/openapi.json', publicBudget, documentHandler(JSON.stringify(openApi), 'application/json; charset=utf-8', 'no-cache'));
  app.use(docsRouter(pageHeaders, publicBudget, documentHandler));
  // Before authentication: a browser's GET /graphql gets the IDE page (no headers yet); the API is unchanged.
  if (config.graphiql) app.use(graphiqlRouter(pageHeaders, publicBudget, documentHandler));
  if (config.console) app.use(consoleRouter(pageHeaders, publicBudget, documentHandler));
  // Public, before authentication: logos are shown to patients (rest-bridge routes return these URLs).
  app.use(assetsRouter(platform.tenants, limits));
  app.use('/auth', authRouter(platform.tenants, limits, config.sessions, anonymous, [...json, refuseBadText]));
  // Single sign-on through each tenant's OpenID Connect provider, its answers taken back at PUBLIC_URL.
  app.use('/auth', oidcRouter(platform.tenants, config.sessions, anonymous, config.publicUrl, new OidcDiscovery(config.ssoAllowInternal)));
  if (config.operatorToken) app.use('/admin', adminRouter(admin, config.operatorToken, limits, [...json, refuseBadText]));
  // Prometheus text of every worker (docs/metrics.md); like /admin, absent without an operator token.
  if (config.operatorToken) app.get('/metrics', operatorOnly(config.operatorToken, limits), metricsRoute());

  // A tenant's route the bridge cannot answer (a streamed file, not one JSON document): its own authentication and scope check.
  app.use(auditExportRouter(platform.tenants, graph.scopes, tenantScoped, graph.apiSchema));
  // One gate for both subscription transports: graphql-sse here, graphql-ws on /graphql's upgrade (ws-subscriptions.ts).
  const gate = subscriptionGate(subscriptions, config.graphql, graph.apiSchema, graph.scopes, graph.phiMask);
  app.use('/graphql/stream', routeNamed('/graphql/stream'), tenantScoped, json, streamHandler(gate));
  app.use('/graphql', routeNamed('/graphql'), tenantScoped, json, chargeGraphQL(limits, graph.apiSchema, config.graphql), expressMiddleware(graph.server, { context: async ({ res }) => contextOf(res) }));
  app.use(anonymous, notFound);
  app.use(closeUnreadBodies);
  // Refusals on /graphql and /graphql/stream (credentials, CSRF, budget, body) in GraphQL's form; every other path gets the REST contract's.
  app.use('/graphql', graphQLErrorHandler(logError, contextOf));
  app.use(errorHandler(logError, contextOf));

  const revokedElsewhere = await listenForKeyRevocations(platform.databaseUrl, () => keys.clear(), log);
  const server = createEdgeServer(app, config.edge).listen(config.port, config.host);
  // What node's HTTP parser refuses (a head over 16 KiB) is answered in JSON too, not with an empty body.
  server.on('clientError', answerClientError);
  const sockets = serveWebSocketSubscriptions(server, { app, authenticate: tenantScoped, gate, log, ownOrigin: new URL(config.publicUrl).origin, maxPayloadBytes: config.bodyLimitBytes, connectionInitWaitMs: config.edge.headersTimeoutMs });
  const drain = drainOnShutdown(server, config.plumbing.has('slot-list'));
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject)).catch(async (error) => {
    unwatchQueues();
    await revokedElsewhere.close();
    throw error;
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    admin,
    async close() {
      const started = Date.now();
      // Sockets are cut at once with 1001, as event streams are; the server's close waits for them otherwise.
      await sockets.close();
      await drain(config.shutdownGraceMs);
      // A request whose client has gone is no longer in flight for HTTP, yet its resolvers may still run.
      if (!(await waitUntilIdle(graph.busy, config.shutdownGraceMs - (Date.now() - started)))) log.warn('shutdown grace period over; cutting the resolvers still running');
      clearInterval(pruneTimer);
      idempotency.stop();
      unwatchQueues();
      revocations?.stop();
      await revokedElsewhere.close();
      await graph.server.stop();
      await limits.close();
    },
  };
}
