import { GraphQLError } from 'graphql';

/** The error vocabulary shared by every subgraph, the gateway and the bridge (docs/decisions.md, Errors). */
export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'RATE_LIMITED'
  | 'SERVICE_UNAVAILABLE'
  | 'CLIENT_CLOSED_REQUEST'
  | 'INTERNAL_SERVER_ERROR';

/**
 * One validation problem, shaped like a Pydantic v2 error element. Inside a subgraph `loc`
 * starts with the GraphQL argument name (`["input", "timezone"]`); the REST bridge rewrites the
 * head into `body`, `query`, `path` or `header` using its route table.
 */
export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** Base of every error a resolver may throw on purpose; anything else is a 500. */
export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;

  /** Extensions carried by the GraphQL error besides `code`. */
  extensions(): Record<string, unknown> {
    return {};
  }

  /** The GraphQL form of this error, as the subgraph's formatError emits it. */
  toGraphQLError(): GraphQLError {
    return new GraphQLError(this.message, { extensions: { code: this.code, ...this.extensions() } });
  }
}

/** Input that breaks a rule: 422 with the issues as `detail`. */
export class ValidationError extends DomainError {
  readonly code = 'BAD_USER_INPUT' as const;
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((i) => i.msg).join('; ') || 'Invalid input');
  }
  extensions(): Record<string, unknown> {
    return { validation: this.issues };
  }
}

/** A domain rule failure on one field (`value_error`, as Pydantic names it). */
export function valueError(loc: (string | number)[], reason: string, input: unknown): ValidationError {
  return new ValidationError([{ type: 'value_error', loc, msg: `Value error, ${reason}`, input, ctx: { error: reason } }]);
}

/** Unknown id, or another tenant's: the two must be indistinguishable (docs/decisions.md, Tenancy). */
export class NotFoundError extends DomainError {
  readonly code = 'NOT_FOUND' as const;
  constructor(message = 'Not Found') {
    super(message);
  }
}

/** The request conflicts with the resource's state (409). */
export class ConflictError extends DomainError {
  readonly code = 'CONFLICT' as const;
}

/**
 * A request with the same Idempotency-Key is still running (409 with Retry-After): the seconds
 * until its claim is released at the latest, should that request never finish (docs/api.md, Safe
 * retries).
 */
export class InProgressError extends ConflictError {
  constructor(readonly retryAfterSeconds: number) {
    super('A request with this Idempotency-Key is still being processed');
  }
  extensions(): Record<string, unknown> {
    return { retryAfter: this.retryAfterSeconds };
  }
}

/** No valid credentials (401). */
export class UnauthenticatedError extends DomainError {
  readonly code = 'UNAUTHENTICATED' as const;
}

/** Valid credentials that do not reach this resource (403). */
export class ForbiddenError extends DomainError {
  readonly code = 'FORBIDDEN' as const;
}

/** The caller's key or role lacks the scope an operation needs (403 naming it; docs/access.md). */
export class MissingScopeError extends ForbiddenError {
  constructor(readonly scope: string) {
    super(`Missing scope "${scope}"`);
  }
  extensions(): Record<string, unknown> {
    return { scope: this.scope };
  }
}

/** Over the tenant's request budget, or its share of expensive work (429 with Retry-After). */
export class RateLimitedError extends DomainError {
  readonly code = 'RATE_LIMITED' as const;
  constructor(readonly retryAfterSeconds: number, message = 'Rate limit exceeded') {
    super(message);
  }
  extensions(): Record<string, unknown> {
    return { retryAfter: this.retryAfterSeconds };
  }
}

/**
 * A service outside the platform that the request needs (the payment processor) did not answer
 * (503 with Retry-After). The request may be retried as it is: whatever it began is settled by
 * the retry. `cause` is logged by the subgraph, never sent.
 */
export class ServiceUnavailableError extends DomainError {
  readonly code = 'SERVICE_UNAVAILABLE' as const;
  constructor(message: string, readonly retryAfterSeconds: number, options?: { cause?: unknown }) {
    super(message, options);
  }
  extensions(): Record<string, unknown> {
    return { retryAfter: this.retryAfterSeconds };
  }
}

/**
 * The client closed its connection before its answer was sent: the request's signal aborted with
 * this (platform/request-signal.ts), and work it was still waiting for is dropped. Nobody
 * reads the answer (499, nginx's Client Closed Request), so it is never logged as a failure.
 */
export class ClientClosedRequestError extends DomainError {
  readonly code = 'CLIENT_CLOSED_REQUEST' as const;
  constructor() {
    super('The client closed the connection before the answer was sent');
  }
}

/** HTTP status for each code, read by the one HTTP error mapping (rest-bridge/http-errors.ts), which answers the gateway's edge too. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  BAD_USER_INPUT: 422,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  CLIENT_CLOSED_REQUEST: 499,
  INTERNAL_SERVER_ERROR: 500,
};
