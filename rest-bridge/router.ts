import { Router, type Request, type RequestHandler, type ErrorRequestHandler, type Response } from 'express';
import type { DocumentNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { GraphQLScalarType } from 'graphql';
import { MapperKind, mapSchema } from '@graphql-tools/utils';
import { DateTimeResolver } from 'graphql-scalars';
import { ValidationError } from '../schema/errors';
import { parseSingleOperation, type PreparedOperation } from '../schema/single-operation';
import { admissionGuard } from './admission';
import { deprecationGuard } from './deprecation';
import { coerceRequest } from './coerce';
import type { OperationExecutor, RequestContext } from '../schema/request-context';
import { answering, graphQLErrorAnswer, sendAnswer, type ContextOf, type ErrorLog, type HttpAnswer } from './http-errors';
import { IDEMPOTENCY_HEADER, runIdempotently, type IdempotencyStore } from './idempotency';
import { readUpload } from './upload';
import { restSpeller } from './enum-spelling';
import { NO_STREAM_PRIORITY, serveStream, type StreamPriority, type StreamSupport } from './stream';
import { pageBody, pageResult, pageVariables, withPageVariable, type ListAnswer } from './page-list';
import type { RouteDefinition } from './types';

/** What the bridge needs from the edge: the request's context, a way to run operations on it, and where failures are logged. */
export interface BridgeEdge {
  /** The context the edge created for this request; read once per request and passed down as a value. */
  context: ContextOf;
  run: OperationExecutor;
  logError: ErrorLog;
  /**
   * Charges the request for the operation it is about to run with these variables, by the formula
   * `/graphql` is charged by (docs/api.md, "Rate limits"), writing the budget left on `res`; throws
   * the 429's error over the budget. Without it a route costs the one unit its guard charged.
   */
  charge?: (res: Response, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown>, ctx: RequestContext) => Promise<void> | void;
  /**
   * Throws the 403 of a caller whose scopes do not reach the operation (the gateway's one scope
   * check, docs/access.md); asked of every route but public ones, before the body is read.
   */
  authorize?: (document: DocumentNode, operation: OperationDefinitionNode, ctx: RequestContext) => void;
}

/** `/analytics/widgets/{widget_id}` -> `/analytics/widgets/:widget_id` */
export const toExpressPath = (path: string): string => path.replace(/\{([^}]+)\}/g, ':$1');

/** Parses a route's document and checks it against the API schema once, at start-up: a broken route fails then, and what runs it gets it parsed. */
function compileRoute(route: RouteDefinition, schema: GraphQLSchema): PreparedOperation {
  try {
    return parseSingleOperation(route.document, schema);
  } catch (error) {
    throw new Error(`REST route ${route.method} ${route.path}: ${(error as Error).message}`);
  }
}

/**
 * The gateway's API schema is built from SDL, so its custom scalars accept anything; coercion
 * needs the real `DateTime` parser to give Pydantic's datetime errors (coerce-value.ts) instead of
 * passing a bad date on to the subgraph. Only the bridge's copy changes; the gateway's is untouched.
 * The edge's audit export reads its query parameters through the same copy.
 */
export function withScalarParsers(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.SCALAR_TYPE]: (type) => (type.name === DateTimeResolver.name ? new GraphQLScalarType({ ...type.toConfig(), parseValue: DateTimeResolver.parseValue }) : type),
  });
}

/** The route's scope check, between its credentials and its body: a caller without the scope is refused before anything is read. */
function authorizeRoute({ document, operation }: PreparedOperation, edge: BridgeEdge): RequestHandler {
  return (_req, res, next) => {
    edge.authorize!(document, operation, edge.context(res));
    next();
  };
}

/** Optional collaborators of the router. */
export interface RestRouterOptions {
  /** Where idempotent routes keep their responses; without it `Idempotency-Key` is ignored. */
  idempotency?: IdempotencyStore;
  /** Serves routes with `stream` (subscriptions as server-sent events); required when the table has any. */
  streams?: StreamSupport;
  /** How streams' events are ordered (the gateway's FirstEventPriority); none by default. */
  streamPriority?: StreamPriority;
  /**
   * What a route's request passes through before the bridge, mounted on that route alone (one route
   * match per request instead of a path-list match per middleware): `admit` (authentication, rate
   * limit), then the route's admission query if it has one (admission.ts), then `read` (body parsers).
   */
  guards?: (route: RouteDefinition) => RouteGuards;
}

/** A route's guards, in two parts so that its admission query runs between them: nothing is read before it is allowed. */
export interface RouteGuards {
  /** Who may send it: credentials and the budget that answers for the request. */
  admit: (RequestHandler | ErrorRequestHandler)[];
  /** How its body is read, once admitted. */
  read: (RequestHandler | ErrorRequestHandler)[];
}

/**
 * Builds the express router for the route table. It only translates: HTTP in -> variables ->
 * GraphQL operation -> HTTP out. Every rule lives in a subgraph (docs/architecture.md, Rules of the house).
 */
export function createRestRouter(routes: RouteDefinition[], schema: GraphQLSchema, edge: BridgeEdge, options: RestRouterOptions = {}): Router {
  const router = Router();
  const streamPriority = options.streamPriority ?? NO_STREAM_PRIORITY;
  schema = withScalarParsers(schema);
  for (const declared of routes) {
    const prepared = compileRoute(declared, schema);
    // The route's picks see `data` with REST's enum spellings (enum-spelling.ts): plain, paged and stream routes alike.
    const spell = restSpeller(schema, prepared.document);
    const route: RouteDefinition = { ...declared, result: (data) => declared.result(spell(data)) };
    const { document, operation } = prepared;
    // A subscription cannot answer a plain route, nor a query a stream one: refuse the table at start-up.
    if (Boolean(route.stream) !== (operation.operation === 'subscription') || (route.stream && !options.streams)) {
      throw new Error(`REST route ${route.method} ${route.path}: stream routes, and only they, run subscriptions (and need stream support)`);
    }
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    const guards = options.guards?.(route) ?? { admit: [], read: [] };
    const admission = admissionGuard(route, operation, schema, edge);
    const authorize = edge.authorize && route.auth !== 'public' ? [authorizeRoute(prepared, edge)] : [];
    const deprecation = deprecationGuard(route);
    // A paged route's `page` is the bridge's own variable: declared once, for coercion only (rest-bridge/page-list.ts).
    const coercible = withPageVariable(route, operation);
    // Marked first, so whatever refuses the request on its way answers in the route's 422 style
    // (and, for a deprecated route, with its Deprecation and Sunset headers).
    router[method](toExpressPath(route.path), answering(route), ...(deprecation ? [deprecation] : []), ...guards.admit, ...authorize, ...(admission ? [admission] : []), ...guards.read, async (req: Request, res: Response) => {
      res.locals.route = route.path;
      const ctx = edge.context(res);
      const logError = (error: unknown) => edge.logError(ctx, error);
      const coerced = coerceRequest(route, coercible, schema, {
        pathParams: req.params as Record<string, string>,
        query: req.query as Record<string, string | string[] | undefined>,
        headers: req.headers,
        body: req.body,
      });
      if ('issues' in coerced) throw new ValidationError(coerced.issues);
      const page = route.paged ? pageVariables(coerced.variables) : undefined;
      // Charged for what it asks (list sizes, filter values) once its variables are known, before anything runs.
      const charging = edge.charge?.(res, document, operation, coerced.variables, ctx);
      if (charging) await charging;
      // A multipart route's file becomes one more variable; read only once everything else is valid.
      if (route.upload) coerced.variables[route.upload.variable] = await readUpload(req, res, route.upload);
      if (route.stream) return serveStream({ ...route, stream: route.stream }, prepared, coerced.variables, ctx, res, options.streams!, logError, streamPriority);
      const answer = async (): Promise<HttpAnswer> => {
        const ran = await edge.run(prepared, coerced.variables, ctx);
        const result = page ? pageResult(route, ran, page) : ran;
        if (result.errors?.length) return graphQLErrorAnswer(result.errors, route, logError);
        const status = route.status ?? 200;
        const body = status === 204 ? undefined : route.result(result.data ?? {});
        return { status, body: page ? pageBody(route, body as ListAnswer, page) : body };
      };
      const idempotent = route.idempotent && options.idempotency;
      const key = idempotent ? req.get(IDEMPOTENCY_HEADER) : undefined;
      // The subgraphs see the key with the caller's identity (a write made under it is found by a retry with it);
      // `answer` runs only once runIdempotently has validated and claimed it, as a tenant's key.
      if (key !== undefined && ctx.tenantId) ctx.idempotencyKey = key;
      sendAnswer(res, idempotent ? await runIdempotently(options.idempotency!, key, ctx.tenantId, route, coerced.variables, answer) : await answer());
    });
  }
  return router;
}
