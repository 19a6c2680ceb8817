import type { IncomingMessage } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { ValidationError, type ValidationIssue } from '../schema/errors';
import { textIssues } from '../schema/text-rule';
import { HttpRefusal } from './http-errors';

/**
 * Longest request target (path and query string) read: no route of the contract needs a tenth of
 * it, and it bounds the work of the query parser (at most ~4,000 parameters). Longer is a 414;
 * a request head over node's own 16 KiB limit is a 431 written by `answerClientError`.
 */
export const MAX_URL_LENGTH = 8 * 1024;

/** Deepest JSON nesting accepted; the contract's bodies need about 5, and recursive code downstream must never meet 5,000. */
export const MAX_JSON_DEPTH = 64;

/** Refuses an over-long request target before anything parses its query string. */
export function refuseLongUrl(req: Request, _res: Response, next: NextFunction): void {
  next(req.originalUrl.length > MAX_URL_LENGTH ? new HttpRefusal(414, 'URI too long') : undefined);
}

/** Whether a parsed JSON value nests deeper than `max`; iterative, so a 100,000-level value costs a loop, not the stack. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= max) return true;
    for (const child of Object.values(item.value)) stack.push({ value: child, depth: item.depth + 1 });
  }
  return false;
}

/** The 422 for a body nested too deeply: a `value_error` on the whole body, which is not echoed. */
export function tooDeepIssue(max = MAX_JSON_DEPTH): ValidationIssue {
  const reason = `JSON must not nest deeper than ${max} levels`;
  return { type: 'value_error', loc: ['body'], msg: `Value error, ${reason}`, input: null, ctx: { error: reason } };
}

/** Placed right after the JSON parser: a too-deep body is refused before any recursive code (coercion, GraphQL, the error writer) sees it. */
export function refuseDeepJson(req: Request, _res: Response, next: NextFunction): void {
  next(nestsDeeperThan(req.body, MAX_JSON_DEPTH) ? new ValidationError([tooDeepIssue()]) : undefined);
}

/**
 * What FastAPI reads as JSON: an `application/` content type whose subtype is `json` or ends in `+json` (`text/json` is not), or a
 * non-empty body with none at all (an empty one stays no body: `missing` where one is required).
 * Anything else is not parsed as JSON; a JSON-body route then meets the raw text (`readNonJsonBody`).
 */
export function isJsonRequest(req: IncomingMessage): boolean {
  if (req.headers['content-type'] === undefined) return req.headers['content-length'] !== '0';
  return Boolean((req as Request).is(['application/json', 'application/*+json']));
}

/**
 * For a JSON-body route, a body of another content type is read as text, as FastAPI keeps the raw
 * bytes: coercion then refuses it as Pydantic does (422 `model_attributes_type`), where it used to
 * be taken for no body at all (a PUT answered 200 and changed nothing). An empty one is no body.
 */
export function readNonJsonBody(limit: number) {
  const text = express.text({ limit, type: (req) => !isJsonRequest(req) });
  return [text, (req: Request, _res: Response, next: NextFunction) => {
    if (req.body === '') req.body = undefined;
    next();
  }];
}

/** The text rule for a body read by hand-written routes (`/admin`): 422 `value_error` naming each offending field. */
export function refuseBadText(req: Request, _res: Response, next: NextFunction): void {
  const issues = textIssues(req.body, ['body']);
  next(issues.length > 0 ? new ValidationError(issues) : undefined);
}
