import { createHash } from 'node:crypto';
import type { ApolloGateway, GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLRequestContext } from '@apollo/server-gateway-interface';
import { GraphQLError, isNonNullType, Kind, type DocumentNode, type GraphQLFormattedError, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { PreparedOperation } from '../../schema/single-operation';
import type { OperationExecutor, OperationResult, RequestContext } from '../../schema/request-context';
import type { SingleFetch } from '../../platform/speed/single-fetch-plan';
import { bytesOverCap, responseTooLargeMessage } from './graphql-limits';
import type { PhiMask } from '../access/phi-mask';

/** Formats an error for clients, as Apollo Server's `formatError` option. */
export type ErrorFormatter = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

/** What the runner derives once from a prepared document: what the gateway's executor reads of a request. */
interface RunnerEntry {
  queryHash: string;
  /** Set when the gateway would answer with one fetch it passes through: the runner sends that fetch itself. */
  direct: { fetch: SingleFetch; source: GraphQLDataSource<RequestContext> } | null;
  /** The variable a root field's page size comes from (`perPage`), which an answer over the response cap names. */
  pageVariable: string | null;
}

/** The response cap the REST surface shares with `/graphql` (GRAPHQL_MAX_RESPONSE_BYTES, graphql-limits.ts). */
export interface ResponseCap {
  maxBytes: number;
  /** Told of each answer refused, with its size. */
  onRefused(bytes: number): void;
}

/** What lets the runner skip the gateway for single-fetch queries (SPEED_PLUMBING `rest-direct`): their fetches, planned at start-up, and the gateway's own data sources. */
export interface DirectFetches {
  /** By the client document's text (planSingleFetches). */
  fetches: ReadonlyMap<string, SingleFetch>;
  /** By subgraph name: the same data sources the gateway calls, deduplication included. */
  sources: ReadonlyMap<string, GraphQLDataSource<RequestContext>>;
}

type GatewayRequestContext = GatewayGraphQLRequestContext<RequestContext & Record<string, unknown>>;

/**
 * Runs the REST bridge's operations on Apollo Gateway's executor directly. Apollo Server's request
 * pipeline (hashing the query text, document cache, media-type negotiation, plugin hooks) costs
 * more than the tenant read it wraps; the bridge's documents are fixed, parsed and validated once
 * at start-up (the router's), hashed once here, and the gateway then plans (cached) and executes it as it would
 * for `/graphql`. With `directFetches`, a document the gateway would answer with one subgraph fetch
 * is sent as that fetch instead (docs/decisions.md). Errors get the same `formatError` as `/graphql`.
 */
export function createOperationRunner(gateway: ApolloGateway, schema: GraphQLSchema, formatError: ErrorFormatter, directFetches?: DirectFetches, cap?: ResponseCap, mask?: PhiMask): OperationExecutor {
  // By the prepared operation the caller holds for good: nothing is parsed here.
  const entries = new WeakMap<PreparedOperation, RunnerEntry>();
  const entryOf = (prepared: PreparedOperation): RunnerEntry => {
    let entry = entries.get(prepared);
    if (!entry) {
      entry = {
        queryHash: createHash('sha256').update(prepared.source).digest('hex'),
        direct: directFetches ? findDirect(directFetches, prepared.source) : null,
        pageVariable: pageVariableOf(prepared.operation),
      };
      entries.set(prepared, entry);
    }
    return entry;
  };
  const run = async ({ source, document, operation }: PreparedOperation, { queryHash, direct }: RunnerEntry, variables: Record<string, unknown>, context: RequestContext): Promise<OperationResult> => {
    const requestContext = new RunnerRequestContext(source, variables, context, document, operation, queryHash, schema) as unknown as GatewayRequestContext;
    if (direct) return sendFetch(direct.fetch, direct.source, requestContext, formatError);
    const result = await gateway.executor(requestContext);
    const errors = result.errors?.map((error) => formatError(error instanceof GraphQLError ? error.toJSON() : (error as GraphQLFormattedError), error));
    return errors?.length ? { data: result.data, errors } : { data: result.data };
  };
  return async (prepared, variables, context) => {
    const entry = entryOf(prepared);
    const answered = await run(prepared, entry, variables, context);
    const result = cap && !answered.errors?.length ? capped(answered, cap, entry.pageVariable, variables) : answered;
    // The patient mask, as `/graphql`'s answers get it from its plugin (gateway/access/phi-mask.ts).
    mask?.apply(prepared.document, prepared.operation, result.data, context.scopes);
    return result;
  };
}

/**
 * The REST side of the one response cap: data whose JSON is over it becomes a 422 naming the page
 * size (`["query", "per_page"]` once the bridge relocates it), which the caller can lower; the
 * bridge's one error mapping answers it. Measured on the operation's data, which holds the body.
 */
function capped(result: OperationResult, cap: ResponseCap, pageVariable: string | null, variables: Record<string, unknown>): OperationResult {
  const bytes = bytesOverCap(JSON.stringify(result.data ?? null), cap.maxBytes);
  if (bytes === null) return result;
  cap.onRefused(bytes);
  const reason = `the response would be larger than ${cap.maxBytes} bytes; ask for ${pageVariable ? 'a smaller page size' : 'fewer objects'}`;
  const issue = { type: 'value_error', loc: [pageVariable ?? 'response'], msg: `Value error, ${reason}`, input: pageVariable ? (variables[pageVariable] ?? null) : null, ctx: { error: reason } };
  return { data: null, errors: [{ message: responseTooLargeMessage(cap.maxBytes), extensions: { code: 'BAD_USER_INPUT', validation: [issue], maxBytes: cap.maxBytes } }] };
}

/** The variable feeding a root field's page size (`perPage`, `first`, `last`), if one does. */
function pageVariableOf(operation: OperationDefinitionNode): string | null {
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    for (const argument of selection.arguments ?? []) {
      if (['perPage', 'first', 'last'].includes(argument.name.value) && argument.value.kind === Kind.VARIABLE) return argument.value.name.value;
    }
  }
  return null;
}

/**
 * The request context the runner gives Apollo Gateway's executor and data sources: only the fields
 * they read. The name is left out because the document holds one operation, and naming it would
 * cost the executor a hash per request. A class with the getter on its prototype, not an object
 * literal with `get logger()` made per request (docs/decisions.md, "Request objects die young").
 */
class RunnerRequestContext {
  readonly request: { query: string; variables: Record<string, unknown> };
  readonly source: string;
  readonly operationName = null;
  readonly metrics = {};

  constructor(
    query: string,
    variables: Record<string, unknown>,
    readonly context: RequestContext,
    readonly document: DocumentNode,
    readonly operation: OperationDefinitionNode,
    readonly queryHash: string,
    readonly schema: GraphQLSchema,
  ) {
    this.request = { query, variables };
    this.source = query;
  }

  /** Read only when something logs: the request's child logger is made on first use. */
  get logger() {
    return this.context.log;
  }
}

/** The single fetch for a document, with the data source that sends it; null when the gateway must plan it. */
function findDirect(direct: DirectFetches, query: string): RunnerEntry['direct'] {
  const fetch = direct.fetches.get(query);
  const source = fetch && direct.sources.get(fetch.subgraph);
  return fetch && source ? { fetch, source } : null;
}

/** Apollo's GraphQLDataSourceRequestKind.INCOMING_OPERATION; the enum is not exported from the package's entry point. */
const INCOMING_OPERATION = 'incoming operation' as GraphQLDataSourceProcessOptions['kind'];

/**
 * Sends a single-fetch query's one fetch as Apollo Gateway's executeFetch does (the variables it
 * uses, the subgraph's document, the incoming request's context) and keeps the answer as the
 * gateway's result shaping would: the planner found nothing to add, drop or rename. Errors get
 * what executeQueryPlan gives a subgraph's errors (no locations, `serviceName` until formatError
 * strips it), then the same formatError.
 */
async function sendFetch(fetch: SingleFetch, source: GraphQLDataSource<RequestContext>, requestContext: GatewayRequestContext, formatError: ErrorFormatter): Promise<OperationResult> {
  const given = requestContext.request.variables ?? {};
  const variables: Record<string, unknown> = Object.create(null);
  for (const name of fetch.variableNames) if (Object.hasOwn(given, name) && given[name] !== undefined) variables[name] = given[name];
  let response;
  try {
    response = await source.process({
      kind: INCOMING_OPERATION,
      request: { query: fetch.query, variables, operationName: fetch.operationName },
      incomingRequestContext: requestContext,
      // The edge's context as is: the data source hands its signal on, so a client that leaves drops what this fetch queued.
      context: requestContext.context,
      document: fetch.document,
      pathInIncomingRequest: [],
    } as GraphQLDataSourceProcessOptions<RequestContext>);
  } catch (error) {
    const thrown = error instanceof GraphQLError ? error : new GraphQLError((error as Error)?.message ?? String(error), { originalError: error as Error });
    return { data: unanswered(requestContext), errors: [formatError(thrown.toJSON(), thrown)] };
  }
  const data = (response.data ?? unanswered(requestContext)) as OperationResult['data'];
  if (!response.errors?.length) return { data };
  const errors = response.errors.map((received) => {
    const error = new GraphQLError(received.message, { path: received.path, extensions: { ...received.extensions, serviceName: fetch.subgraph } });
    return formatError(error.toJSON(), error);
  });
  return { data, errors };
}

/**
 * What the gateway's result shaping makes of a fetch that brought no data (the subgraph could not
 * be reached, or refused the request): each root field null, so `data` is null when one of them
 * is non-null. A root selection other than a plain field (no REST route has one) keeps null data.
 */
function unanswered({ schema, operation }: GatewayRequestContext): OperationResult['data'] {
  const fields = schema.getQueryType()?.getFields() ?? {};
  const data: Record<string, null> = {};
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || selection.directives?.length) return null;
    const field = fields[selection.name.value];
    if (!field || isNonNullType(field.type)) return null;
    data[selection.alias?.value ?? field.name] = null;
  }
  return data;
}
