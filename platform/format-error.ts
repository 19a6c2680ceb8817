import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import { clientError } from '../schema/client-error';
import { DomainError } from '../schema/errors';
import type { SubgraphContext } from './context';

/** Where unexpected errors are reported; the subgraph's logger, never the client. */
export type ErrorReporter = (error: unknown, requestId: string | undefined) => void;

/**
 * What of an error belongs in the server's log: the cause a domain error wraps (an unreachable
 * processor), or an internal error itself (schema/client-error.ts decides which those are);
 * undefined for anything else the client is told (the caller's own mistakes included).
 */
export function causeToLog(error: GraphQLError): unknown {
  const original = error.originalError;
  if (original instanceof DomainError) return original.cause;
  const client = clientError(error);
  if (!client) return original ?? error;
  // A dependency's outage (the database did not answer) is told as a 503; what happened stays here.
  return client.code === 'SERVICE_UNAVAILABLE' ? (original ?? error) : undefined;
}

/**
 * The subgraph's single error mapper: what `clientError` lets a client see keeps its code and
 * extensions, anything else becomes a generic 500 whose cause is logged with the request id and
 * never sent (docs/decisions.md, Errors). `report` is skipped when the transport logs causes
 * itself (Apollo Server's didEncounterErrors, which knows the request).
 */
export function toClientError(error: GraphQLError, report: ErrorReporter | null, requestId?: string): GraphQLError {
  const cause = report ? causeToLog(error) : undefined;
  if (cause !== undefined) report!(cause, requestId);
  const client = clientError(error);
  if (!client) return new GraphQLError('Internal server error', { path: error.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  // Only an error raised before execution points into the document; a resolver's has its path instead.
  return new GraphQLError(client.message, { path: error.path, nodes: error.path ? undefined : error.nodes, extensions: client.extensions });
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
