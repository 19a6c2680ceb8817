import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { GraphQLFormattedError } from 'graphql';
import { clientError, type ClientError } from '../schema/client-error';
import { HTTP_STATUS, NotFoundError, type ErrorCode, type ValidationIssue } from '../schema/errors';
import type { RequestContext } from '../schema/request-context';
import type { RouteDefinition } from './types';
import { jsonInvalid, relocate, validationDetail } from './validation-error';

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

/** Where a response keeps the route it answers (`answering`). */
const ROUTE_KEY = 'restRoute';

/**
 * First among a route's handlers: marks the response as that route's answer, so an error raised
 * anywhere on its way (a body the parser refused, a guard, the route itself) is answered in the
 * route's 422 style (validation-error.ts, `validationDetail`).
 */
export function answering(route: RouteDefinition): RequestHandler {
  return (_req, res, next) => {
    res.locals[ROUTE_KEY] = route;
    next();
  };
}

/** The route a response answers, if the request reached one. */
const routeOf = (res: Response): RouteDefinition | undefined => res.locals[ROUTE_KEY];

/** A REST response as data: what the bridge sends, and what an idempotent route stores for replay. */
export interface HttpAnswer {
  status: number;
  /** JSON body; undefined sends none (204). */
  body: unknown;
  headers?: Record<string, string>;
}

/** The answer to anything internal: its cause goes to the log, never to the client. */
const INTERNAL: HttpAnswer = { status: 500, body: { detail: 'Internal server error' } };

/**
 * Writes an error's JSON without ever failing on the body: should it not serialise (a value too
 * deep for JSON.stringify), 422 elements are sent again without their `input`.
 */
function sendJson(res: Response, answer: HttpAnswer): void {
  const { detail } = answer.body as { detail: unknown };
  let text: string;
  try {
    text = JSON.stringify(answer.body);
  } catch {
    text = JSON.stringify({ detail: Array.isArray(detail) ? detail.map((issue) => ({ ...issue, input: null })) : 'Internal server error' });
  }
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  res.status(answer.status).set('Content-Type', 'application/json; charset=utf-8').send(text);
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

/**
 * An error's refusal, before any surface writes it: the status, the headers it goes with, and what
 * the client is told (the error's code, message and extensions, as on the graph). Each surface
 * writes the body in its own form: `{"detail"}` for REST (`restAnswer`), `{"errors"}` for
 * `/graphql` (gateway/http/graphql-errors.ts).
 */
export interface Refusal {
  status: number;
  headers?: Record<string, string>;
  error: ClientError;
}

/** A refusal at the HTTP level (no DomainError; the request could not be read): GraphQL over HTTP's `BAD_REQUEST`. */
function httpLevel(status: number, message: string, extensions: Record<string, unknown> = {}): Refusal {
  return { status, error: { code: 'BAD_REQUEST', message, extensions: { code: 'BAD_REQUEST', ...extensions } } };
}

/**
 * The status of an error a client may see (schema/client-error.ts): its code's, with
 * `Retry-After` where it says when to come back. Undefined for a code HTTP has no status for: a
 * 500, like any internal error.
 */
function clientRefusal(error: ClientError): Refusal | undefined {
  if (!Object.hasOwn(HTTP_STATUS, error.code)) return undefined;
  const retryAfter = retryAfterHeader(error.extensions.retryAfter);
  return { status: HTTP_STATUS[error.code as ErrorCode], headers: retryAfter ? { 'Retry-After': retryAfter } : undefined, error };
}

/**
 * The one status decision for an error thrown into express, shared by every surface's error
 * handler; undefined for an internal one (a 500 whose cause goes to the log). A 503's cause (the
 * outside service's failure) is logged here, next to the request id.
 */
export function refusalFor(error: unknown, logError: (error: unknown) => void): Refusal | undefined {
  if (error instanceof HttpRefusal) return httpLevel(error.status, error.detail);
  const client = clientError(error);
  const refusal = client && clientRefusal(client);
  if (refusal) {
    if (refusal.status >= 500) logError(error);
    return refusal;
  }
  const parserError = error as BodyParserError;
  if (parserError?.type === 'entity.parse.failed') {
    const issue = jsonInvalid(parserError.body ?? '', parserError);
    return httpLevel(422, issue.msg, { validation: [issue] });
  }
  if (parserError?.type === 'encoding.unsupported' || parserError?.type === 'charset.unsupported') return httpLevel(415, HTTP_DETAIL[415]);
  // The router could not percent-decode a path segment (`%ZZ`): it names nothing, like any unknown id.
  if (error instanceof URIError && parserError.status === 400) return clientRefusal(clientError(new NotFoundError('Not Found'))!);
  // Any other client fault the body parser found (a false `Content-Encoding: gzip`, a body shorter than its length).
  const status = parserError?.status;
  if (parserError?.expose && typeof status === 'number' && status >= 400 && status < 500) return httpLevel(status, HTTP_DETAIL[status] ?? STATUS_CODES[status] ?? 'Bad Request');
  return undefined;
}

/**
 * The REST form of a refusal: a 422 lists its issues, located in HTTP terms by `locate`, in the
 * route's style; anything else has its message as `detail`.
 */
function restAnswer({ status, headers, error }: Refusal, route: RouteDefinition | undefined, locate: (issues: ValidationIssue[]) => ValidationIssue[] = (issues) => issues): HttpAnswer {
  if (status === 422) {
    const issues = (error.extensions.validation as ValidationIssue[] | undefined) ?? [
      { type: 'value_error', loc: ['body'], msg: `Value error, ${error.message}`, input: null, ctx: { error: error.message } },
    ];
    return { status, body: { detail: validationDetail(locate(issues), route) } };
  }
  return { status, body: { detail: error.message }, headers };
}

/** The answer for an error thrown into express, or undefined for an internal one (a 500 whose cause goes to the log). */
function answerFor(error: unknown, route: RouteDefinition | undefined, logError: (error: unknown) => void): HttpAnswer | undefined {
  if (error instanceof RefusedAnswer) return error.answer;
  const refusal = refusalFor(error, logError);
  return refusal && restAnswer(refusal, route);
}

/**
 * Where errors thrown into express become HTTP responses (docs/decisions.md, Errors). Every layer
 * throws typed errors; this writes the contract's `{"detail": ...}` bodies, and never anything
 * else: no input reaches express's HTML error page.
 */
export function errorHandler(logError: ErrorLog, contextOf: ContextOf) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) return;
    const log = (failure: unknown) => logError(contextOf(res), failure);
    try {
      const answer = answerFor(error, routeOf(res), log);
      if (!answer) log(error);
      sendJson(res, answer ?? INTERNAL);
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

/** The HTTP answer for a GraphQL result that carries errors: the first error decides it. */
export function graphQLErrorAnswer(errors: readonly GraphQLFormattedError[], route: RouteDefinition, logInternal: (error: Error) => void): HttpAnswer {
  const first = errors[0];
  const client = clientError(first);
  const refusal = client && clientRefusal(client);
  // A subgraph locates issues by GraphQL argument (`["input", "timezone"]`); the client sent them in HTTP terms.
  if (refusal) return restAnswer(refusal, route, (issues) => relocate(issues, route));
  logInternal(new Error(`GraphQL operation ${route.operationId} failed: ${first.message}`));
  return INTERNAL;
}

/** Writes an answer. */
export function sendAnswer(res: Response, answer: HttpAnswer): void {
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  if (answer.body === undefined) res.status(answer.status).end();
  else res.status(answer.status).json(answer.body);
}
