import type { GraphQLFormattedError } from 'graphql';
import type { Logger } from 'pino';
import type { Actor } from './actor';
import type { Grants } from './scopes';
import type { PreparedOperation } from './single-operation';

/**
 * The request's identity, created once at the edge (gateway/http/request-context.ts) and handed down as
 * a value to the REST bridge, the operation runner and the subscription router (docs/architecture.md,
 * Rules of the house). It lives here, beside the error vocabulary, because every layer speaks it.
 */
export interface RequestContext {
  requestId: string;
  /** Set by authentication; null on public and operator routes. */
  tenantId: string | null;
  keyId: string | null;
  /** What the caller was granted (docs/access.md), set by authentication; absent on public routes and internal calls, which are granted nothing. */
  scopes?: Grants;
  /** Who is calling (an API key, a person), set by authentication; what audit records name (docs/audit.md). */
  actor?: Actor;
  /** The client's address as the edge saw it (behind a trusted proxy, the address it forwarded). */
  clientAddress?: string;
  /**
   * The caller's `Idempotency-Key`, set by the REST bridge on a route that honours it once the key
   * is valid and claimed; absent elsewhere (GraphQL callers send none). Subgraphs tie a write to it
   * so that a retry after a lost answer finds that write (docs/api.md, Safe retries). Never logged.
   */
  idempotencyKey?: string;
  log: Logger;
  /**
   * Aborted when the client's connection closes before its answer is sent; work the request still
   * waits for (a turn in a fair queue, a subgraph fetch) is dropped. Absent where no client waits.
   */
  signal?: AbortSignal;
}

/** What running an operation answers, per result of a subscription too: errors already in their client form. */
export interface OperationResult {
  data?: Record<string, unknown> | null;
  errors?: readonly GraphQLFormattedError[];
}

/** Runs one GraphQL operation (a query or mutation), parsed and validated before, for a request's context. */
export type OperationExecutor = (operation: PreparedOperation, variables: Record<string, unknown>, ctx: RequestContext) => Promise<OperationResult>;

/**
 * Opens a GraphQL subscription for a request's context. Resolves once it is open or refused (a
 * refusal is one result with errors and no data); the iterator's `return()` cancels it, upstream
 * work included.
 */
export type SubscriptionExecutor = (operation: PreparedOperation, variables: Record<string, unknown>, ctx: RequestContext) => Promise<AsyncIterator<OperationResult>>;
