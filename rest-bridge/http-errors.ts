import type { NextFunction, Request, Response } from 'express';
import type { GraphQLFormattedError } from 'graphql';
import { DomainError, HTTP_STATUS, NotFoundError, type ErrorCode, type ValidationIssue } from '../schema/errors';
import type { RouteDefinition, ValidationStyle } from './types';
import { formatDetail, jsonInvalid, relocate } from './validation-error';

/** Validation issues already located in HTTP terms (`["query", "page"]`), with the route's 422 style. */
export class RequestValidationError extends Error {
  constructor(readonly issues: ValidationIssue[], readonly style: ValidationStyle = 'full') {
    super('Request validation failed');
  }
}

/** Log sink for unexpected errors: the cause stays on the server, with the request id. */
export type ErrorLog = (res: Response, error: unknown) => void;

interface BodyParserError extends Error {
  type?: string;
  body?: string;
  status?: number;
}

/**
 * The one place where errors become HTTP responses (DESIGN.md section 5). Every layer throws
 * typed errors; this writes the contract's `{"detail": ...}` bodies.
 */
export function errorHandler(logError: ErrorLog) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) return;
    const parserError = error as BodyParserError;
    if (error instanceof RequestValidationError) {
      res.status(422).json({ detail: formatDetail(error.issues, error.style) });
    } else if (error instanceof DomainError) {
      const detail = error.code === 'BAD_USER_INPUT' ? formatDetail((error as any).issues as ValidationIssue[], 'full') : error.message;
      const { retryAfter } = error.extensions();
      if (retryAfter) res.setHeader('Retry-After', String(retryAfter));
      // A 503's cause (the outside service's failure) belongs in the log, next to the request id.
      if (HTTP_STATUS[error.code] >= 500) logError(res, error);
      res.status(HTTP_STATUS[error.code]).json({ detail });
    } else if (parserError?.type === 'entity.parse.failed') {
      res.status(422).json({ detail: formatDetail([jsonInvalid(parserError.body ?? '', parserError)], 'full') });
    } else if (parserError?.type === 'entity.too.large') {
      res.status(413).json({ detail: 'Request body too large' });
    } else if (parserError?.type === 'encoding.unsupported' || parserError?.type === 'charset.unsupported') {
      res.status(415).json({ detail: 'Unsupported request encoding' });
    } else if (error instanceof URIError && parserError.status === 400) {
      // The router could not percent-decode a path segment (`%ZZ`): it names nothing, like any unknown id.
      res.status(404).json({ detail: 'Not Found' });
    } else {
      logError(res, error);
      res.status(500).json({ detail: 'Internal server error' });
    }
  };
}

/** Unknown routes: the contract's JSON 404, never an HTML page. */
export function notFound(_req: Request, _res: Response, next: NextFunction): void {
  next(new NotFoundError('Not Found'));
}

/** A REST response as data: what the bridge sends, and what an idempotent route stores for replay. */
export interface HttpAnswer {
  status: number;
  /** JSON body; undefined sends none (204). */
  body: unknown;
  headers?: Record<string, string>;
}

/** The HTTP answer for a GraphQL result that carries errors: the first error decides the status. */
export function graphQLErrorAnswer(errors: readonly GraphQLFormattedError[], route: RouteDefinition, logInternal: (error: Error) => void): HttpAnswer {
  const first = errors[0];
  const code = (first.extensions?.code as ErrorCode | undefined) ?? 'INTERNAL_SERVER_ERROR';
  const status = HTTP_STATUS[code] ?? 500;
  if (status === 500) {
    logInternal(new Error(`GraphQL operation ${route.operationId} failed: ${first.message}`));
    return { status: 500, body: { detail: 'Internal server error' } };
  }
  if (code === 'BAD_USER_INPUT') {
    const issues = (first.extensions?.validation as ValidationIssue[] | undefined) ?? [
      { type: 'value_error', loc: ['body'], msg: `Value error, ${first.message}`, input: null, ctx: { error: first.message } },
    ];
    return { status: 422, body: { detail: formatDetail(relocate(issues, route), route.validationStyle ?? 'full') } };
  }
  // Rate limits and an unreachable outside service say when to come back.
  const headers: Record<string, string> | undefined = first.extensions?.retryAfter ? { 'Retry-After': String(first.extensions.retryAfter) } : undefined;
  return { status, body: { detail: first.message }, headers };
}

/** Writes an answer. */
export function sendAnswer(res: Response, answer: HttpAnswer): void {
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  if (answer.body === undefined) res.status(answer.status).end();
  else res.status(answer.status).json(answer.body);
}

/** Writes the response for a GraphQL result that carries errors. */
export function sendGraphQLErrors(res: Response, errors: readonly GraphQLFormattedError[], route: RouteDefinition, logError: ErrorLog): void {
  sendAnswer(res, graphQLErrorAnswer(errors, route, (error) => logError(res, error)));
}
