import type { NextFunction, Request, Response } from 'express';
import type { GraphQLFormattedError } from 'graphql';
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { refusalFor, retryAfterHeader, type ContextOf, type ErrorLog } from '../../rest-bridge/http-errors';

/** GraphQL over HTTP's media types, with the charset Apollo Server writes on its own answers. */
const GRAPHQL_RESPONSE_JSON = 'application/graphql-response+json; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

const INTERNAL: GraphQLFormattedError = { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };

/**
 * The media type of an answer to `req`, chosen as Apollo Server chooses for its own: JSON unless
 * the client prefers GraphQL over HTTP's `application/graphql-response+json` (Apollo Client asks
 * for it first), and JSON for an `Accept` that names neither: a refusal is sent anyway.
 */
function mediaTypeFor(req: Request): string {
  // Without an Accept header, express's `accepts` gives the first type: JSON.
  return req.accepts(['application/json', 'application/graphql-response+json']) === 'application/graphql-response+json' ? GRAPHQL_RESPONSE_JSON : JSON_TYPE;
}

/**
 * The body, never failing on it: should an issue's `input` not serialise (a value too deep for
 * JSON.stringify), the issues are sent again without it.
 */
function bodyOf(error: GraphQLFormattedError): string {
  try {
    return JSON.stringify({ errors: [error] });
  } catch {
    const { validation } = (error.extensions ?? {}) as { validation?: unknown };
    const issues = Array.isArray(validation) ? validation.map((issue: object) => ({ ...issue, input: null })) : undefined;
    return JSON.stringify({ errors: [{ message: error.message, extensions: { ...error.extensions, ...(issues ? { validation: issues } : {}) } }] });
  }
}

/**
 * The error handler of `/graphql` and `/graphql/stream` (mounted on their paths, before the REST
 * one): a refusal the edge makes before GraphQL runs (credentials, CSRF, the budget, a body it
 * cannot read) keeps the status and headers of the one HTTP mapping (rest-bridge/http-errors.ts,
 * `refusalFor`) and is written as a GraphQL response, `{"errors": [{message, extensions}]}`, with
 * the code and extensions the same error carries on the graph, so a GraphQL client reads it like
 * any other (docs/api.md, Errors). Apollo Server's own answers never come here.
 */
export function graphQLErrorHandler(logError: ErrorLog, contextOf: ContextOf) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    if (res.headersSent) return;
    const log = (failure: unknown) => logError(contextOf(res), failure);
    const type = mediaTypeFor(req);
    try {
      const refusal = refusalFor(error, log);
      if (!refusal) log(error);
      for (const [name, value] of Object.entries(refusal?.headers ?? {})) res.setHeader(name, value);
      const formatted = refusal ? { message: refusal.error.message, extensions: refusal.error.extensions } : INTERNAL;
      res.status(refusal?.status ?? 500).set('Content-Type', type).send(bodyOf(formatted));
    } catch (failure) {
      log(failure);
      if (!res.headersSent) res.status(500).set('Content-Type', type).send(JSON.stringify({ errors: [INTERNAL] }));
    }
  };
}

/**
 * The HTTP status of a `/graphql` answer that a dependency's outage emptied (docs/api.md, Errors):
 * an operation with a `SERVICE_UNAVAILABLE` error (a subgraph, the database, the payment processor
 * did not answer) and no field answered (`data` null, or every root field null) is a 503 with
 * `Retry-After`, the longest `retryAfter` among its errors, as the same failure is on REST; the
 * body stays the GraphQL response. An answer with data keeps its 200: its errors say which fields
 * are missing.
 */
export function unavailableStatusPlugin<TContext extends BaseContext>(): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          if (response.body.kind !== 'single') return;
          const { data, errors } = response.body.singleResult;
          const unavailable = errors?.filter((error) => error.extensions?.code === 'SERVICE_UNAVAILABLE') ?? [];
          if (unavailable.length === 0 || (data && Object.values(data).some((value) => value !== null))) return;
          response.http.status = 503;
          const retryAfter = retryAfterHeader(Math.max(...unavailable.map((error) => Number(error.extensions?.retryAfter) || 0)));
          if (retryAfter) response.http.headers.set('retry-after', retryAfter);
        },
      };
    },
  };
}
