import type { NextFunction, Request, Response } from 'express';
import { parse, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { RateLimitedError } from '../../schema/errors';
import type { RequestContext } from '../../schema/request-context';
import type { GraphQLLimits } from '../config-readers';
import { setRateLimitHeaders, type RateDecision, type RateLimits } from '../http/rate-limit';
import { contextOf } from '../http/request-context';
import { operationCost, selectOperation } from './graphql-cost';
import { PersistedQueries } from './persisted-queries';

/** Charges a request for the operation it runs, beyond the unit authentication charged; over the budget it throws (or rejects with) RateLimitedError. */
export type OperationCharge = (res: Response, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown>, ctx: RequestContext) => Promise<void> | void;

/**
 * The charge of an operation, one formula for `/graphql` and the REST routes (graphql-cost.ts):
 * authentication charged its first unit, this charges the rest and writes the budget left on the
 * response. A request that is nobody's (a public route) was counted against its address and is
 * not charged again. A request costing one unit returns at once, without a promise.
 */
export function operationCharge(limits: RateLimits, schema: GraphQLSchema): OperationCharge {
  return (res, document, operation, variables, ctx) => {
    const extra = operationCost(schema, document, operation, variables) - 1;
    if (extra <= 0 || !ctx.tenantId) return;
    const decided = (decision: RateDecision): void => {
      setRateLimitHeaders(res, decision);
      if (!decision.allowed) throw new RateLimitedError(decision.resetSeconds);
    };
    const decision = limits.consumeTenant(ctx.tenantId, extra);
    return decision instanceof Promise ? decision.then(decided) : decided(decision);
  };
}

/** A `/graphql` request's parameters, from the JSON body (POST) or the URL (GET), as GraphQL over HTTP puts them. */
interface GraphQLParams {
  query?: unknown;
  operationName?: unknown;
  variables?: unknown;
  extensions?: unknown;
}

/**
 * What `/graphql` runs before Apollo Server, once authentication has charged a unit: resolves an
 * automatic persisted query within the tenant's own documents (persisted-queries.ts; Apollo's
 * shared cache is off), then charges the document that will run, persisted or sent, by the
 * formula of every request (graphql-cost.ts). Apollo gets the full document.
 *
 * The document is parsed here for its cost and again by Apollo Server on its first sight (Apollo
 * keeps parsed and validated documents by hash after that): Apollo takes a request's text only,
 * and its document store skips validation, so it cannot be handed this parse.
 */
export function chargeGraphQL(limits: RateLimits, schema: GraphQLSchema, graphql: GraphQLLimits) {
  const persisted = new PersistedQueries();
  const charge = operationCharge(limits, schema);
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const ctx = contextOf(res);
    const params = paramsOf(req);
    if (!params || !ctx.tenantId) return next();
    let query = params.query;
    let registration: { hash: string; query: string } | null = null;
    if (isRecord(params.extensions) && params.extensions.persistedQuery != null) {
      const resolved = persisted.resolve(ctx.tenantId, params.query, params.extensions.persistedQuery);
      if (resolved.kind === 'answer') return void res.status(resolved.status).set(resolved.headers).json(resolved.body);
      query = resolved.query;
      if (resolved.register) registration = { hash: resolved.hash, query: resolved.query };
      handApollo(req, resolved.query, params.extensions);
    }
    const document = typeof query === 'string' ? parseOrNull(query, graphql.maxTokens) : null;
    // A document that does not parse, or names no operation it holds, costs its one unit: Apollo refuses it without running anything.
    if (!document) return next();
    if (registration) persisted.register(ctx.tenantId, registration.hash, registration.query);
    const operation = selectOperation(document, params.operationName);
    if (operation) await charge(res, document, operation, isRecord(params.variables) ? params.variables : {}, ctx);
    next();
  };
}

/** The request's GraphQL parameters, or null when it has none Apollo would read (it answers that itself). */
function paramsOf(req: Request): GraphQLParams | null {
  if (req.method === 'POST') return isRecord(req.body) ? (req.body as GraphQLParams) : null;
  if (req.method !== 'GET') return null;
  const search = req.query as Record<string, unknown>;
  return { query: search.query, operationName: search.operationName, variables: jsonParam(search.variables), extensions: jsonParam(search.extensions) };
}

/** Puts the resolved document where Apollo Server reads it, and takes the extension away (Apollo's own persisted queries are off). */
function handApollo(req: Request, query: string, extensions: Record<string, unknown>): void {
  const { persistedQuery: _persisted, ...rest } = extensions;
  const remaining = Object.keys(rest).length > 0 ? rest : undefined;
  if (req.method === 'POST') {
    const { extensions: _extensions, ...body } = req.body as Record<string, unknown>;
    req.body = remaining ? { ...body, query, extensions: remaining } : { ...body, query };
    return;
  }
  // A GET's parameters are read from its URL (the mount point's part of it, restored by express after the route).
  const at = req.url.indexOf('?');
  const search = new URLSearchParams(at === -1 ? '' : req.url.slice(at + 1));
  search.set('query', query);
  if (remaining) search.set('extensions', JSON.stringify(remaining));
  else search.delete('extensions');
  req.url = `${at === -1 ? req.url : req.url.slice(0, at)}?${search.toString()}`;
}

function parseOrNull(query: string, maxTokens: number): DocumentNode | null {
  try {
    return parse(query, { maxTokens, noLocation: true });
  } catch {
    return null;
  }
}

/** A JSON-encoded URL parameter, or undefined when it is absent or not JSON (Apollo refuses the latter itself). */
function jsonParam(value: unknown): unknown {
  if (typeof value !== 'string') return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
