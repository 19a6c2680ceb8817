import { Router, type Request, type Response } from 'express';
import type { GraphQLFormattedError, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { Kind, parse, validate } from 'graphql';
import { coerceRequest } from './coerce';
import { graphQLErrorAnswer, RequestValidationError, sendAnswer, type ErrorLog, type HttpAnswer } from './http-errors';
import { runIdempotently, type IdempotencyStore } from './idempotency';
import type { RouteDefinition } from './types';

/** Runs one GraphQL operation in-process for the response's request context. */
export type OperationExecutor = (
  document: string,
  variables: Record<string, unknown>,
  res: Response,
) => Promise<{ data?: Record<string, unknown> | null; errors?: readonly GraphQLFormattedError[] }>;

/** `/analytics/widgets/{widget_id}` -> `/analytics/widgets/:widget_id` */
const toExpressPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

/** Parses a route's document and checks it against the API schema, so a broken route fails at start-up, not per request. */
function compileRoute(route: RouteDefinition, schema: GraphQLSchema): OperationDefinitionNode {
  const document = parse(route.document);
  const problems = validate(schema, document);
  if (problems.length > 0) throw new Error(`REST route ${route.method} ${route.path}: ${problems.map((p) => p.message).join('; ')}`);
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== 1) throw new Error(`REST route ${route.method} ${route.path} must hold exactly one operation`);
  return operations[0];
}

/** Optional collaborators of the router. */
export interface RestRouterOptions {
  /** Where idempotent routes keep their responses; without it `Idempotency-Key` is ignored. */
  idempotency?: IdempotencyStore;
}

/**
 * Builds the express router for the route table. It only translates: HTTP in -> variables ->
 * GraphQL operation -> HTTP out. Every rule lives in a subgraph (DESIGN.md section 2).
 */
export function createRestRouter(routes: RouteDefinition[], schema: GraphQLSchema, run: OperationExecutor, logError: ErrorLog, options: RestRouterOptions = {}): Router {
  const router = Router();
  for (const route of routes) {
    const operation = compileRoute(route, schema);
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    router[method](toExpressPath(route.path), async (req: Request, res: Response) => {
      res.locals.route = route.path;
      const coerced = coerceRequest(route, operation, schema, {
        pathParams: req.params as Record<string, string>,
        query: req.query as Record<string, string | string[] | undefined>,
        headers: req.headers,
        body: req.body,
      });
      if ('issues' in coerced) throw new RequestValidationError(coerced.issues, route.validationStyle ?? 'full');
      const answer = async (): Promise<HttpAnswer> => {
        const result = await run(route.document, coerced.variables, res);
        if (result.errors?.length) return graphQLErrorAnswer(result.errors, route, (error) => logError(res, error));
        const status = route.status ?? 200;
        return { status, body: status === 204 ? undefined : route.result(result.data ?? {}) };
      };
      sendAnswer(res, route.idempotent && options.idempotency ? await runIdempotently(options.idempotency, req, res, route, coerced.variables, answer) : await answer());
    });
  }
  return router;
}
