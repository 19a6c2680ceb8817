import { GraphQLError } from 'graphql';
import { DomainError } from './errors';
import { dependencyOutage } from './dependency-outage';

/** What a client may be told of an error, on every surface: its code, its message and its extensions (`code` among them). */
export interface ClientError {
  /** An `ErrorCode`, or a GraphQL request error's own (`GRAPHQL_PARSE_FAILED`, `GRAPHQL_VALIDATION_FAILED`, ...). */
  code: string;
  message: string;
  /** Everything `extensions` carries: `code`, and `validation` or `retryAfter` where the error has them. */
  extensions: Record<string, unknown>;
}

/** An error in the form it travels in: a formatted GraphQL error, a parsed response's, a GraphQLError. */
interface TravellingError {
  message: string;
  extensions?: { readonly [key: string]: unknown };
}

/**
 * The one decision of whether an error is internal (docs/architecture.md, Error vocabulary), for
 * the subgraph's formatting, `/graphql`'s and the REST bridge's alike; each surface then writes
 * the answer in its own form. A client may see:
 * - a `DomainError` (schema/errors.ts), thrown or wrapped by graphql-js;
 * - an error graphql-js raised before any resolver ran (a GraphQLError without a path: parse,
 *   validation, variable coercion, a custom scalar refusing an input value): the caller's input is
 *   at fault, so its own code or `BAD_USER_INPUT`;
 * - an error that carries a code other than `INTERNAL_SERVER_ERROR`: a GraphQLError a resolver
 *   threw with one on purpose, or one a subgraph or the gateway already formatted.
 * - a dependency's outage (the database or Redis did not answer; schema/dependency-outage.ts),
 *   told as `SERVICE_UNAVAILABLE` with `retryAfter`, its cause logged by the surface.
 * Anything else is internal: undefined, and the surface answers a generic 500 and logs the cause.
 */
export function clientError(error: unknown): ClientError | undefined {
  if (error instanceof DomainError) {
    return { code: error.code, message: error.message, extensions: { code: error.code, ...error.extensions() } };
  }
  if (error instanceof GraphQLError) {
    const original = error.originalError;
    if (original instanceof DomainError) return clientError(original);
    if (!error.path) {
      const code = typeof error.extensions?.code === 'string' ? error.extensions.code : 'BAD_USER_INPUT';
      return { code, message: error.message, extensions: { ...error.extensions, code } };
    }
    // A resolver's own failure (a bug, a lost connection) is located with its original; only a coded GraphQLError speaks to the client.
    if (original) return original instanceof GraphQLError ? coded(original) : outage(original);
  }
  return (isTravelling(error) ? coded(error) : undefined) ?? outage(error);
}

/** A dependency's outage as the 503 a client is told, or undefined. */
function outage(error: unknown): ClientError | undefined {
  const unavailable = dependencyOutage(error);
  return unavailable && clientError(unavailable);
}

/** An error whose code says it is meant for the client: any but `INTERNAL_SERVER_ERROR`. */
function coded(error: TravellingError): ClientError | undefined {
  const code = error.extensions?.code;
  if (typeof code !== 'string' || code === 'INTERNAL_SERVER_ERROR') return undefined;
  return { code, message: error.message, extensions: { ...error.extensions } };
}

function isTravelling(error: unknown): error is TravellingError {
  return typeof error === 'object' && error !== null && typeof (error as TravellingError).message === 'string';
}
