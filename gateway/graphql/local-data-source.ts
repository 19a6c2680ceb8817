import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { execute, GraphQLError, parse, validate, type DocumentNode, type ExecutionResult } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { ErrorReporter } from '../../platform/format-error';
import { toClientError } from '../../platform/format-error';
import type { RunningSubgraph } from '../../platform/subgraph-runtime';
import type { RequestContext } from '../../schema/request-context';
import { inSubgraphSpan } from '../../platform/tracing/subgraph-span';

/** Upper bound of cached subgraph documents; the gateway sends a small, fixed set of query shapes. */
const MAX_CACHED_DOCUMENTS = 2_000;

/**
 * Executes the gateway's subgraph fetches in-process. Unlike Apollo's LocalGraphQLDataSource it
 * parses and validates each distinct query once: doing that on every fetch was the largest single
 * cost measured in the in-process gateway (docs/architecture.md, Stack notes).
 */
export class CachedLocalDataSource implements GraphQLDataSource<RequestContext> {
  private readonly documents = new Map<string, DocumentNode>();
  /** Fixed operations compiled ahead (`compile`), by query text; never a client's arbitrary document. */
  private readonly compiled = new Map<string, CompiledQuery>();
  private running = 0;

  constructor(private readonly subgraph: RunningSubgraph, private readonly report: ErrorReporter) {}

  /** Whether a fetch is executing; a shutdown waits for it before closing the subgraph's database. */
  get busy(): boolean {
    return this.running > 0;
  }

  /**
   * Compiles a fixed operation this subgraph will be sent as is (the REST routes' single fetches)
   * with graphql-jit, which then runs it instead of graphql-js's interpreter. Only fixed ones:
   * compiling costs far more than executing once, so a client's documents are never compiled.
   * False when graphql-jit refuses it (it then runs as any other).
   */
  compile(query: string, document: DocumentNode = parse(query)): boolean {
    if (validate(this.subgraph.schema, document).length > 0) return false;
    const compiled = compileQuery(this.subgraph.schema, document);
    if (!isCompiledQuery(compiled)) return false;
    this.compiled.set(query, compiled);
    return true;
  }

  async process(options: GraphQLDataSourceProcessOptions<RequestContext>): Promise<GatewayGraphQLResponse> {
    const { request } = options;
    const query = request.query ?? '';
    const compiled = this.compiled.get(query);
    let document = compiled ? undefined : this.documents.get(query);
    if (!compiled && !document) {
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
      // The edge's signal, so work this fetch waits for is dropped once its client has gone.
      const contextValue = this.subgraph.context({ tenantId, requestId, signal: identity.signal, actor: identity.actor, clientAddress: identity.clientAddress, idempotencyKey: identity.idempotencyKey });
      // Promise.resolve, not an async function: a compiled query's promise passes through as it is.
      result = await inSubgraphSpan({ subgraph: this.subgraph.name, tenantId, operationName: request.operationName }, () =>
        Promise.resolve(
          compiled
            ? compiled.query(undefined, contextValue, request.variables)
            : execute({ schema: this.subgraph.schema, document: document!, variableValues: request.variables, operationName: request.operationName, contextValue }),
        ),
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
