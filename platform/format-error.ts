import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import { DomainError } from '../schema/errors';
import type { SubgraphContext } from './context';

/** Where unexpected errors are reported; the subgraph's logger, never the client. */
export type ErrorReporter = (error: unknown, requestId: string | undefined) => void;

/**
 * What of an error belongs in the server's log: an unexpected error itself, or the cause a domain
 * error wraps (an unreachable processor); undefined for domain errors without one and for the
 * caller's own mistakes (parse, validation, variable coercion).
 */
export function causeToLog(error: GraphQLError): unknown {
  const original = error.originalError;
  if (original instanceof DomainError) return original.cause;
  if (!original || !error.path) return undefined;
  if (original instanceof GraphQLError && original.extensions?.code) return undefined;
  return original;
}

/**
 * The subgraph's single error mapper: domain errors keep their code and extensions, GraphQL's
 * own request errors pass through, anything else becomes a generic 500 whose cause is logged
 * with the request id and never sent (docs/decisions.md, Errors). `report` is skipped when the
 * transport logs causes itself (Apollo Server's didEncounterErrors, which knows the request).
 */
export function toClientError(error: GraphQLError, report: ErrorReporter | null, requestId?: string): GraphQLError {
  const cause = report ? causeToLog(error) : undefined;
  if (cause !== undefined) report!(cause, requestId);
  const original = error.originalError;
  if (original instanceof DomainError) {
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
  return new GraphQLError('Internal server error', { path: error.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

/**
 * Same mapping for Apollo Server's `formatError`, which hands over the formatted error too but
 * not the request: causes are logged by `reportCauses` instead, with the request id.
 */
export function formatSubgraphError(_formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  if (error instanceof GraphQLError) return toClientError(error, null).toJSON();
  return { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

/** An Apollo Server plugin that logs what `formatSubgraphError` hides, with the request's id. */
export function reportCauses(report: ErrorReporter): ApolloServerPlugin<SubgraphContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, contextValue }) {
          for (const error of errors) {
            const cause = causeToLog(error);
            if (cause !== undefined) report(cause, contextValue?.requestId);
          }
        },
      };
    },
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
