import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { OperationExecutor } from '../schema/request-context';
import { parseSingleOperation } from '../schema/single-operation';
import { coerceRequest } from './coerce';
import { graphQLErrorAnswer, RefusedAnswer, RequestValidationError, type ContextOf, type ErrorLog, type HttpAnswer } from './http-errors';
import type { RouteDefinition } from './types';

/** What an admission needs from the edge: the request's context and a way to run an operation on it. */
export interface AdmissionEdge {
  context: ContextOf;
  run: OperationExecutor;
  logError: ErrorLog;
}

/**
 * How long a verdict is remembered per process: long enough that a flood of posts to one key
 * costs one lookup in ten seconds, short enough that a campaign switched off is refused before
 * its body soon after (meanwhile the route itself still answers its 409, after the body).
 */
const REMEMBER_MS = 10_000;

/** Verdicts remembered per route and kind; past it the oldest goes (a few MB at most). */
const MAX_REMEMBERED = 10_000;

/** null: admitted; else the refusal's answer. */
type Verdict = HttpAnswer | null;

/** Verdicts for a few seconds, the oldest dropped first once full. */
class Remembered {
  private readonly entries = new Map<string, { verdict: Verdict; expiresAt: number }>();

  get(key: string): { verdict: Verdict } | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expiresAt > Date.now()) return hit;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, verdict: Verdict): void {
    if (this.entries.size >= MAX_REMEMBERED) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { verdict, expiresAt: Date.now() + REMEMBER_MS });
  }
}

/**
 * The guard of a route with an `admission` (types.ts): placed after the route's budget and before
 * its body parsers, it runs the admission query with the path's variables and refuses the request
 * with that query's error, the body unread; the route's own 422 for a malformed path comes first,
 * as it would. Both run modes alike: the query goes through the same executor as the route (an
 * in-process subgraph, or one over HTTP). Admitted keys and unknown ones (404) are remembered
 * briefly, kept apart so that a flood of unknown keys cannot push out the known ones, and
 * concurrent requests for one key share one lookup; other refusals (an inactive campaign's 409)
 * are asked each time, so that a campaign switched back on takes leads at once.
 */
export function admissionGuard(route: RouteDefinition, operation: OperationDefinitionNode, schema: GraphQLSchema, edge: AdmissionEdge): RequestHandler | null {
  if (!route.admission) return null;
  const query = route.admission;
  const names = variablesOf(route, schema);
  // The route's own coercion, of its path alone: a malformed path is the 422 the route would answer.
  const pathOnly: RouteDefinition = { ...route, queryParams: undefined, headerParams: undefined, body: undefined, upload: undefined };
  const admitted = new Remembered();
  const unknown = new Remembered();
  const pending = new Map<string, Promise<Verdict>>();

  const decide = async (key: string, variables: Record<string, unknown>, res: Response): Promise<Verdict> => {
    const ctx = edge.context(res);
    const result = await edge.run(query, variables, ctx);
    if (!result.errors?.length) {
      admitted.set(key, null);
      return null;
    }
    const answer = graphQLErrorAnswer(result.errors, route, (error) => edge.logError(ctx, error));
    if (answer.status === 404) unknown.set(key, answer);
    return answer;
  };

  return (req: Request, res: Response, next: NextFunction): void => {
    const coerced = coerceRequest(pathOnly, operation, schema, { pathParams: req.params as Record<string, string>, query: {}, headers: {}, body: undefined });
    if ('issues' in coerced) return next(new RequestValidationError(coerced.issues, route.validationStyle ?? 'full'));
    const variables = Object.fromEntries(names.map((name) => [name, coerced.variables[name]]));
    const key = JSON.stringify(names.map((name) => variables[name]));
    const pass = (verdict: Verdict) => next(verdict ? new RefusedAnswer(verdict) : undefined);
    const known = admitted.get(key) ?? unknown.get(key);
    if (known) return pass(known.verdict);
    let deciding = pending.get(key);
    if (!deciding) {
      deciding = decide(key, variables, res).finally(() => pending.delete(key));
      pending.set(key, deciding);
    }
    deciding.then(pass, next);
  };
}

/**
 * The admission's variables, checked at start-up: each must be a path variable of the route, so the
 * path alone decides; and the route must be public, since its verdicts are shared by every caller.
 */
function variablesOf(route: RouteDefinition, schema: GraphQLSchema): string[] {
  const refuse = (why: string) => new Error(`REST route ${route.method} ${route.path}: admission ${why}`);
  if (route.auth !== 'public') throw refuse('is for public routes only: its verdicts are shared by every caller');
  let operation: OperationDefinitionNode;
  try {
    operation = parseSingleOperation(route.admission!, schema).operation;
  } catch (error) {
    throw refuse((error as Error).message);
  }
  if (operation.operation !== 'query') throw refuse('must be a query');
  const fromPath = new Set(Object.values(route.pathParams ?? {}));
  const names = (operation.variableDefinitions ?? []).map((definition) => definition.variable.name.value);
  const stray = names.find((name) => !fromPath.has(name));
  if (stray) throw refuse(`variable $${stray} is not one of the path's`);
  return names;
}
