import { Router, type Request, type Response } from 'express';
import type { GraphQLFormattedError, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { Kind, parse, validate } from 'graphql';
import { coerceRequest } from './coerce';
import { RequestValidationError, sendGraphQLErrors, type ErrorLog } from './http-errors';
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

/**
 * Builds the express router for the route table. It only translates: HTTP in -> variables ->
 * GraphQL operation -> HTTP out. Every rule lives in a subgraph (DESIGN.md section 2).
 */
export function createRestRouter(routes: RouteDefinition[], schema: GraphQLSchema, run: OperationExecutor, logError: ErrorLog): Router {
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
      const result = await run(route.document, coerced.variables, res);
      if (result.errors?.length) return sendGraphQLErrors(res, result.errors, route, logError);
      const status = route.status ?? 200;
      if (status === 204) res.status(204).end();
      else res.status(status).json(route.result(result.data ?? {}));
    });
  }
  return router;
}
