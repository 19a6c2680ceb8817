import { createHash } from 'node:crypto';
import type { ApolloGateway } from '@apollo/gateway';
import type { GatewayGraphQLRequestContext } from '@apollo/server-gateway-interface';
import { GraphQLError, type DocumentNode, type GraphQLFormattedError, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { parseSingleOperation } from '../../schema/single-operation';
import type { OperationExecutor, RequestContext } from '../../schema/request-context';


/** Formats an error for clients, as Apollo Server's `formatError` option. */
export type ErrorFormatter = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

/** A document parsed and validated once, with what the gateway's executor reads from a request. */
interface PreparedOperation {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  queryHash: string;
}

/** Upper bound of prepared documents; the REST routes send a small, fixed set. */
const MAX_PREPARED = 1_000;

/**
 * Runs the REST bridge's operations on Apollo Gateway's executor directly. Apollo Server's request
 * pipeline (hashing the query text, document cache, media-type negotiation, plugin hooks) costs
 * more than the tenant read it wraps; the bridge's documents are fixed, so each is parsed,
 * validated and hashed once here and the gateway then plans (cached) and executes it as it would
 * for `/graphql`. Errors get the same `formatError` as `/graphql`.
 */
export function createOperationRunner(gateway: ApolloGateway, schema: GraphQLSchema, formatError: ErrorFormatter): OperationExecutor {
  const prepared = new Map<string, PreparedOperation>();
  const prepare = (query: string): PreparedOperation => {
    let entry = prepared.get(query);
    if (entry) return entry;
    entry = { ...parseSingleOperation(query, schema), queryHash: createHash('sha256').update(query).digest('hex') };
    if (prepared.size >= MAX_PREPARED) prepared.clear();
    prepared.set(query, entry);
    return entry;
  };
  return async (query, variables, context) => {
    const { document, operation, queryHash } = prepare(query);
    // Only the fields the gateway's executor and data sources read; the name is left out because
    // the document holds one operation, and naming it would cost the executor a hash per request.
    const requestContext = {
      request: { query, variables },
      context,
      document,
      operation,
      queryHash,
      source: query,
      operationName: null,
      schema,
      logger: context.log,
      metrics: {},
    } as unknown as GatewayGraphQLRequestContext<RequestContext & Record<string, unknown>>;
    const result = await gateway.executor(requestContext);
    const errors = result.errors?.map((error) => formatError(error instanceof GraphQLError ? error.toJSON() : (error as GraphQLFormattedError), error));
    return errors?.length ? { data: result.data, errors } : { data: result.data };
  };
}
