import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import type { GraphQLFormattedError } from 'graphql';
import { DomainError, HTTP_STATUS, NotFoundError, type ErrorCode, type ValidationIssue } from '../schema/errors';
import type { RequestContext } from '../schema/request-context';
import type { RouteDefinition, ValidationStyle } from './types';
import { formatDetail, jsonInvalid, relocate } from './validation-error';

/** Validation issues already located in HTTP terms (`["query", "page"]`), with the route's 422 style. */
export class RequestValidationError extends Error {
  constructor(readonly issues: ValidationIssue[], readonly style: ValidationStyle = 'full') {
    super('Request validation failed');
  }
}

/** A refusal at the HTTP level, before any route reads the request (414, for one): a status and its `detail`. */
export class HttpRefusal extends Error {
  constructor(readonly status: number, readonly detail: string) {
    super(detail);
  }
}

/**
 * An answer decided before the route ran (a route's admission query refused it), thrown to the
 * error handler rather than sent, so that a refusal sent while the body is still arriving closes
 * the connection like any other (gateway/http/edge-server.ts, `closeUnreadBodies`).
 */
export class RefusedAnswer extends Error {
  constructor(readonly answer: HttpAnswer) {
    super('Refused before the body was read');
  }
}

/** The `detail` of each HTTP-level refusal; 400 is FastAPI's own words for a body it could not read. */
const HTTP_DETAIL: Record<number, string> = {
  400: 'There was an error parsing the body',
  408: 'Request timeout',
  413: 'Request body too large',
  414: 'URI too long',
  415: 'Unsupported request encoding',
  431: 'Request header fields too large',
};

/** Log sink for unexpected errors: the cause stays on the server, with the request's id. */
export type ErrorLog = (ctx: RequestContext, error: unknown) => void;

/** Finds the context the edge created for a response (gateway/http/request-context.ts). */
export type ContextOf = (res: Response) => RequestContext;

interface BodyParserError extends Error {
  type?: string;
  body?: string;
  status?: number;
  /** Set by http-errors on a 4xx: the client's own fault (a body that would not inflate, a short read). */
  expose?: boolean;
}

/**
 * Writes JSON without ever failing on the body: should it not serialise (a value too deep for
 * JSON.stringify), 422 elements are sent again without their `input`.
 */
function sendJson(res: Response, status: number, body: { detail: unknown }): void {
  let text: string;
  try {
    text = JSON.stringify(body);
  } catch {
    const detail = Array.isArray(body.detail) ? body.detail.map((issue) => ({ ...issue, input: null })) : 'Internal server error';
    text = JSON.stringify({ detail });
  }
  res.status(status).set('Content-Type', 'application/json; charset=utf-8').send(text);
}

/**
 * `Retry-After` from an error's `extensions.retryAfter` (RFC 9110: whole seconds): a 429 from a
 * rate limit or a full fair queue, a 503 from an outside service. Anything that is not a positive
 * number sends no header.
 */
export function retryAfterHeader(value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
  return String(Math.ceil(value));
}

/** The answer for an error, or undefined for an unexpected one (a 500 whose cause goes to the log). */
function answerFor(error: unknown, res: Response, logError: (error: unknown) => void): { status: number; detail: unknown } | undefined {
  const parserError = error as BodyParserError;
  if (error instanceof RequestValidationError) return { status: 422, detail: formatDetail(error.issues, error.style) };
  if (error instanceof HttpRefusal) return { status: error.status, detail: error.detail };
  if (error instanceof RefusedAnswer) {
    for (const [name, value] of Object.entries(error.answer.headers ?? {})) res.setHeader(name, value);
    return { status: error.answer.status, detail: (error.answer.body as { detail: unknown }).detail };
  }
  if (error instanceof DomainError) {
    const detail = error.code === 'BAD_USER_INPUT' ? formatDetail((error as any).issues as ValidationIssue[], 'full') : error.message;
    const retryAfter = retryAfterHeader(error.extensions().retryAfter);
    if (retryAfter) res.setHeader('Retry-After', retryAfter);
    // A 503's cause (the outside service's failure) belongs in the log, next to the request id.
    if (HTTP_STATUS[error.code] >= 500) logError(error);
    return { status: HTTP_STATUS[error.code], detail };
  }
  if (parserError?.type === 'entity.parse.failed') return { status: 422, detail: formatDetail([jsonInvalid(parserError.body ?? '', parserError)], 'full') };
  if (parserError?.type === 'encoding.unsupported' || parserError?.type === 'charset.unsupported') return { status: 415, detail: HTTP_DETAIL[415] };
  // The router could not percent-decode a path segment (`%ZZ`): it names nothing, like any unknown id.
  if (error instanceof URIError && parserError.status === 400) return { status: 404, detail: 'Not Found' };
  // Any other client fault the body parser found (a false `Content-Encoding: gzip`, a body shorter than its length).
  const status = parserError?.status;
  if (parserError?.expose && typeof status === 'number' && status >= 400 && status < 500) return { status, detail: HTTP_DETAIL[status] ?? STATUS_CODES[status] ?? 'Bad Request' };
  return undefined;
}

/**
 * The one place where errors become HTTP responses (docs/decisions.md, Errors). Every layer throws
 * typed errors; this writes the contract's `{"detail": ...}` bodies, and never anything else:
 * no input reaches express's HTML error page.
 */
export function errorHandler(logError: ErrorLog, contextOf: ContextOf) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) return;
    const log = (failure: unknown) => logError(contextOf(res), failure);
    try {
      const answer = answerFor(error, res, log);
      if (!answer) log(error);
      sendJson(res, answer?.status ?? 500, { detail: answer?.detail ?? 'Internal server error' });
    } catch (failure) {
      log(failure);
      if (!res.headersSent) res.status(500).set('Content-Type', 'application/json; charset=utf-8').send('{"detail":"Internal server error"}');
    }
  };
}

/**
 * A request node's HTTP parser refused before express saw it (a head over 16 KiB, a malformed
 * request line): the status node would send, with a JSON body instead of an empty one. Wired to
 * the server's `clientError` event.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const inResponse = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (error.code === 'ECONNRESET' || !socket.writable || inResponse) return void socket.destroy();
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW' ? 413 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify({ detail: status === 400 ? 'Invalid HTTP request' : HTTP_DETAIL[status] });
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status]}`, 'Content-Type: application/json; charset=utf-8', `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close'];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
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
  // Rate limits, a full fair queue (RATE_LIMITED) and an unreachable outside service say when to come back.
  const retryAfter = retryAfterHeader(first.extensions?.retryAfter);
  const headers: Record<string, string> | undefined = retryAfter ? { 'Retry-After': retryAfter } : undefined;
  return { status, body: { detail: first.message }, headers };
}

/** Writes an answer. */
export function sendAnswer(res: Response, answer: HttpAnswer): void {
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  if (answer.body === undefined) res.status(answer.status).end();
  else res.status(answer.status).json(answer.body);
}
