import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { DomainError } from '../../schema/errors';

/** Where unexpected errors are reported; the subgraph's logger, never the client. */
export type ErrorReporter = (error: unknown, requestId: string | undefined) => void;

/**
 * The subgraph's single error mapper: domain errors keep their code and extensions, GraphQL's
 * own request errors pass through, anything else becomes a generic 500 whose cause is logged
 * with the request id and never sent (DESIGN.md section 5).
 */
export function toClientError(error: GraphQLError, report: ErrorReporter, requestId?: string): GraphQLError {
  const original = error.originalError;
  if (original instanceof DomainError) {
    // A domain error that wraps a failure (an unreachable processor) keeps its cause in the log.
    if (original.cause !== undefined) report(original.cause, requestId);
    return new GraphQLError(original.message, {
      path: error.path,
      extensions: { code: original.code, ...original.extensions() },
    });
  }
  if (!original || !error.path) {
    // No path: raised before any resolver ran (parse, validation, variable coercion, including a
    // custom scalar refusing an input value): the caller's input is at fault.
    const code = error.extensions?.code ?? 'BAD_USER_INPUT';
    return new GraphQLError(error.message, { path: error.path, nodes: error.nodes, extensions: { ...error.extensions, code } });
  }
  if (original instanceof GraphQLError && original.extensions?.code) {
    return new GraphQLError(original.message, { path: error.path, extensions: original.extensions });
  }
  report(original, requestId);
  return new GraphQLError('Internal server error', { path: error.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

/** Same mapping for Apollo Server's `formatError`, which hands over the formatted error too. */
export function formatSubgraphError(report: ErrorReporter) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    if (error instanceof GraphQLError) return toClientError(error, report).toJSON();
    report(error, undefined);
    return { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  };
}

/**
 * The same mapping over a whole result, for transports without a `formatError` of their own
 * (graphql-sse's handler, the REST bridge's subscriptions): codes survive, causes stay in the log.
 */
export function formatResult<T extends { errors?: readonly GraphQLError[] }>(result: T, report: ErrorReporter, requestId?: string): T {
  if (!result.errors?.length) return result;
  return { ...result, errors: result.errors.map((error) => toClientError(error, report, requestId)) };
}
