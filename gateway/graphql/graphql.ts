import './apollo-telemetry';
import { ApolloGateway, type GraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import { clientError } from '../../schema/client-error';
import { readSupergraph } from '../../schema/supergraph';
import { ClientClosedRequestError } from '../../schema/errors';
import type { RunningSubgraph } from '../../platform/subgraph-runtime';
import type { SubgraphName } from '../../platform/subgraph-definition';
import type { Config } from '../config';
import { armorProtection, cappedStringify, parseTokenLimit } from './graphql-limits';
import { operationResolutionPlugin } from './graphql-operation-check';
import { surrogateLiteralError, textRulePlugin } from './graphql-text-rule';
import { DeduplicatingDataSource } from '../../platform/speed/inflight-dedup';
import { CachedLocalDataSource } from './local-data-source';
import { graphqlMetricsPlugin } from '../metrics/graphql-metrics';
import { createOperationRunner } from './operation-runner';
import { planSingleFetches } from '../../platform/speed/single-fetch-plan';
import { IdentityForwardingDataSource } from './remote-data-source';
import type { OperationExecutor, RequestContext } from '../../schema/request-context';
import { ScopeCheck } from '../access/scope-check';
import { scopePlugin } from '../access/scope-plugin';
import { PhiMask } from '../access/phi-mask';
import { phiMaskPlugin } from '../access/phi-mask-plugin';
import { unavailableStatusPlugin } from '../http/graphql-errors';
import { requestErrorReporter, throttledOutageLog } from '../../platform/error-reporters';

/** The federated graph: Apollo Gateway over the checked-in supergraph, behind Apollo Server. */
export interface GraphQLLayer {
  server: ApolloServer<RequestContext>;
  /** Runs an operation straight on the gateway's executor, for the REST bridge (operation-runner.ts). */
  runOperation: OperationExecutor;
  /** The public (API) schema of the supergraph, for the REST bridge's coercion and OpenAPI. */
  apiSchema: GraphQLSchema;
  /** The subgraph operations (the REST routes' single fetches) that run compiled by graphql-jit, by operation name. */
  compiled: readonly string[];
  /** Whether an in-process subgraph is executing a fetch (always false in distributed mode, where each subgraph drains itself). */
  busy(): boolean;
  /** The one check of callers' scopes (docs/access.md), verified against the graph at start: `/graphql` runs it, the REST routes and `/graphql/stream` are handed it. */
  scopes: ScopeCheck;
  /** The patient mask `/graphql` and the REST routes apply; the subscription gate applies it to every event. */
  phiMask: PhiMask;
}

/**
 * Starts the gateway: local data sources in all-in-one mode, HTTP to each subgraph in distributed
 * mode. `runnerDocuments` are the fixed operations `runOperation` will get (the REST routes'): with
 * SPEED_PLUMBING's `rest-direct`, those the gateway answers with one subgraph fetch are planned once here and sent as that fetch.
 */
export async function startGraphQL(config: Config, local: RunningSubgraph[] | null, log: Logger, runnerDocuments: readonly string[] = []): Promise<GraphQLLayer> {
  // One outage is one warning per interval, whether a subgraph's resolver or the gateway's answer reports it.
  const outage = throttledOutageLog(log, 'dependency unavailable');
  const report = requestErrorReporter(log, 'subgraph resolver failed', outage);
  const localSources = new Map<string, CachedLocalDataSource>();
  const sources = new Map<string, GraphQLDataSource<RequestContext>>();
  const supergraphSdl = readSupergraph();
  const gateway = new ApolloGateway({
    supergraphSdl,
    buildService: ({ name }): GraphQLDataSource => {
      let source: GraphQLDataSource<RequestContext>;
      if (local) {
        const subgraph = local.find((s) => s.name === name);
        if (!subgraph) throw new Error(`supergraph names subgraph "${name}" that this process does not run`);
        const cached = new CachedLocalDataSource(subgraph, report);
        localSources.set(name, cached);
        source = cached;
      } else {
        source = new IdentityForwardingDataSource(config.subgraphUrls[name as SubgraphName]!, config.internalSecret!, config.subgraphTimeoutMs, config.plumbing.has('subgraph-fetcher'));
      }
      // Identical query fetches in flight reach the subgraph once (inflight-dedup.ts; SPEED_PLUMBING `inflight-dedup`).
      if (config.graphqlDedup) source = new DeduplicatingDataSource(source, name, log, config.plumbing.has('slot-list'));
      sources.set(name, source);
      return source;
    },
  });
  let apiSchema: GraphQLSchema | undefined;
  gateway.onSchemaLoadOrUpdate(({ apiSchema: schema }) => {
    apiSchema = schema;
  });
  // The REST routes and /graphql share one error vocabulary and one classifier (schema/client-error.ts); anything internal is hidden.
  const formatError = (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const surrogate = surrogateLiteralError(formatted, error);
    if (surrogate) return surrogate;
    // An abandoned subgraph fetch (its client went away) is expected and answers nobody: not logged.
    if (isClientGone(error)) return { message: formatted.message, path: formatted.path, extensions: { code: 'CLIENT_CLOSED_REQUEST' } };
    // A typed error a data source threw (an unreachable subgraph's 503) reaches Apollo uncoded: its own class says what it is.
    const client = clientError(formatted) ?? clientError(error);
    // An outage's cause (an unreachable subgraph, the database) goes to the log; the client is told to retry.
    if (client?.code === 'SERVICE_UNAVAILABLE') outage(error, { path: formatted.path });
    if (client) return { message: client.message, path: formatted.path, locations: formatted.locations, extensions: stripServiceName(client.extensions) };
    log.error({ err: error, path: formatted.path }, 'graphql operation failed');
    return { message: 'Internal server error', path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  };
  // One response cap for /graphql and the REST routes (graphql-limits.ts).
  const refused = (bytes: number) => log.warn({ bytes, maxBytes: config.graphql.maxResponseBytes }, 'response over GRAPHQL_MAX_RESPONSE_BYTES replaced by an error');
  // Operation limits (docs/api.md, "GraphQL limits"): refused before planning, so no subgraph sees them.
  const armor = armorProtection(config.graphql);
  const scopes = new ScopeCheck();
  // Made once the gateway has its schema, before any request.
  let mask: PhiMask | undefined;
  const server = new ApolloServer<RequestContext>({
    gateway,
    includeStacktraceInErrorResponses: false,
    // The process's lifecycle (gateway/lifecycle.ts) drains and stops on SIGTERM; Apollo's own handler would race it.
    stopOnTerminationSignals: false,
    formatError,
    introspection: config.graphql.introspection,
    parseOptions: parseTokenLimit(config.graphql),
    validationRules: armor.validationRules,
    stringifyResult: cappedStringify(config.graphql.maxResponseBytes, refused),
    // Automatic persisted queries are kept per tenant at the edge (graphql-charge.ts), which hands Apollo the full document.
    persistedQueries: false,
    // No cache hints are used: computing a cache policy for every field is wasted work per request.
    plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginCacheControlDisabled(), operationResolutionPlugin(), scopePlugin(scopes), phiMaskPlugin(() => mask!), ...armor.plugins, textRulePlugin(), graphqlMetricsPlugin(), unavailableStatusPlugin()],
  });
  await server.start();
  if (!apiSchema) throw new Error('gateway started without a schema');
  scopes.verifyAgainst(apiSchema);
  mask = new PhiMask(apiSchema);
  const phiMask = mask;
  // REST routes that are one subgraph fetch skip the gateway's planning and result shaping
  // (SPEED_PLUMBING `rest-direct`), and in-process run compiled (`rest-compiled`).
  const fetches = config.restDirect ? planSingleFetches(supergraphSdl, runnerDocuments) : new Map();
  const compiled: string[] = [];
  for (const fetch of config.restCompiled ? fetches.values() : []) {
    if (localSources.get(fetch.subgraph)?.compile(fetch.query, fetch.document)) compiled.push(fetch.operationName ?? fetch.query);
    else if (local) log.warn({ subgraph: fetch.subgraph, operation: fetch.operationName }, 'graphql-jit could not compile a REST fetch; it runs interpreted');
  }
  return {
    server,
    apiSchema,
    runOperation: createOperationRunner(gateway, apiSchema, formatError, config.restDirect ? { fetches, sources } : undefined, { maxBytes: config.graphql.maxResponseBytes, onRefused: refused }, phiMask),
    compiled,
    busy: () => [...localSources.values()].some((source) => source.busy),
    scopes,
    phiMask,
  };
}

/** Whether an error is, or wraps, the abort of a request whose client has gone (ClientClosedRequestError). */
function isClientGone(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 3; cause = (cause as { originalError?: unknown }).originalError, depth++) {
    if (cause instanceof ClientClosedRequestError) return true;
  }
  return false;
}

/** Which subgraph answered is an implementation detail clients need not see. */
function stripServiceName(extensions: Record<string, unknown>): Record<string, unknown> {
  const { serviceName: _serviceName, ...rest } = extensions;
  return rest;
}
