import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { RequestContext } from '../../schema/request-context';
import type { Grants } from '../../schema/scopes';
import type { Actor } from '../../schema/actor';
import { requestSignal } from '../../platform/request-signal';

/** An incoming X-Request-Id is echoed only when it is short and plain, so logs cannot be forged through it. */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Creates the context (with the request's one AbortSignal), sets `X-Request-Id` on the response, and stores the context in `res.locals`. */
export function requestContextMiddleware(log: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    res.locals.ctx = new EdgeContext(requestId, log, requestSignal(res), req.ip);
    next();
  };
}

/** A context for work that did not arrive as an express request (a graphql-ws connection's messages): a fresh request id, the caller's address and the work's own signal. */
export function edgeContext(log: Logger, signal: AbortSignal, clientAddress: string | undefined): RequestContext {
  return new EdgeContext(randomUUID(), log, signal, clientAddress);
}

/**
 * The request context with its logger made on first use: most requests log nothing at the
 * production level (the access line is `info`), and a pino child per request is a measurable
 * part of the hot path's cost.
 */
class EdgeContext implements RequestContext {
  tenantId: string | null = null;
  keyId: string | null = null;
  scopes: Grants | undefined = undefined;
  actor: Actor | undefined = undefined;
  idempotencyKey: string | undefined = undefined;
  private child: Logger | undefined;

  constructor(
    readonly requestId: string,
    private readonly parent: Logger,
    readonly signal: AbortSignal,
    readonly clientAddress: string | undefined,
  ) {}

  get log(): Logger {
    return (this.child ??= this.parent.child({ requestId: this.requestId }));
  }
}

/** The context the edge created for this response; throws if the edge middleware did not run. */
export function contextOf(res: Response): RequestContext {
  const ctx = res.locals.ctx as RequestContext | undefined;
  if (!ctx) throw new Error('request context missing: requestContextMiddleware must run first');
  return ctx;
}
