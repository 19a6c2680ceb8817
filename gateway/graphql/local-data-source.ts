import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { execute, GraphQLError, parse, validate, type DocumentNode, type ExecutionResult } from 'graphql';
import type { ErrorReporter } from '../../subgraphs/common/format-error';
import { toClientError } from '../../subgraphs/common/format-error';
import type { RunningSubgraph } from '../../subgraphs/common/subgraph-runtime';
import type { RequestContext } from '../../schema/request-context';
import { inSubgraphSpan } from '../../subgraphs/common/tracing/subgraph-span';

/** Upper bound of cached subgraph documents; the gateway sends a small, fixed set of query shapes. */
const MAX_CACHED_DOCUMENTS = 2_000;

/**
 * Executes the gateway's subgraph fetches in-process. Unlike Apollo's LocalGraphQLDataSource it
 * parses and validates each distinct query once: doing that on every fetch was the largest single
 * cost measured in the in-process gateway (docs/architecture.md, Stack notes).
 */
export class CachedLocalDataSource implements GraphQLDataSource<RequestContext> {
  private readonly documents = new Map<string, DocumentNode>();
  private running = 0;

  constructor(private readonly subgraph: RunningSubgraph, private readonly report: ErrorReporter) {}

  /** Whether a fetch is executing; a shutdown waits for it before closing the subgraph's database. */
  get busy(): boolean {
    return this.running > 0;
  }

  async process(options: GraphQLDataSourceProcessOptions<RequestContext>): Promise<GatewayGraphQLResponse> {
    const { request } = options;
    const query = request.query ?? '';
    let document = this.documents.get(query);
    if (!document) {
      try {
        document = parse(query);
      } catch (error) {
        return { errors: [(error as GraphQLError).toJSON()] };
      }
      const problems = validate(this.subgraph.schema, document);
      if (problems.length > 0) return { errors: problems.map((e) => e.toJSON()) };
      if (this.documents.size >= MAX_CACHED_DOCUMENTS) this.documents.clear();
      this.documents.set(query, document);
    }
    const identity = options.context as Partial<RequestContext>;
    const requestId = identity.requestId ?? 'internal';
    this.running++;
    let result: ExecutionResult;
    try {
      const tenantId = identity.tenantId ?? null;
      result = await inSubgraphSpan({ subgraph: this.subgraph.name, tenantId, operationName: request.operationName }, async () =>
        execute({
          schema: this.subgraph.schema,
          document,
          variableValues: request.variables,
          operationName: request.operationName,
          contextValue: this.subgraph.context({ tenantId, requestId }),
        }),
      );
    } finally {
      this.running--;
    }
    return {
      data: result.data as GatewayGraphQLResponse['data'],
      errors: result.errors?.map((error) => toClientError(error, this.report, requestId).toJSON()),
    };
  }
}
