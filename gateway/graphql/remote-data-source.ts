import './apollo-telemetry';
import { AsyncLocalStorage } from 'node:async_hooks';
import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { GraphQLError } from 'graphql';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import type { Fetcher, FetcherResponse } from '@apollo/utils.fetcher';
import { identityHeaders } from './identity-headers';
import type { RequestContext } from '../../schema/request-context';
import { ServiceUnavailableError } from '../../schema/errors';
import { createSubgraphFetcher } from '../../platform/speed/subgraph-fetcher';
import { isUnreachable, ReplicaRefusedError, SubgraphReplicas } from './subgraph-replicas';

/** Seconds a client is told to wait after a subgraph could not be reached: about as long as a replica sits out. */
export const SUBGRAPH_RETRY_AFTER_SECONDS = 5;

/** One attempt's replica and its signal (the request's, bounded by the fetch's time limit). */
interface Attempt {
  url: string;
  signal: AbortSignal;
}

/**
 * The attempt a fetch is sent for. RemoteGraphQLDataSource builds the request and the fetcher's
 * init itself and hands them no context, so the replica and the signal reach `willSendRequest`
 * and the fetcher through the async context of `process` instead.
 */
const attempts = new AsyncLocalStorage<Attempt>();

/** The fetcher given the signal of the attempt being sent. */
function withAttemptSignal(fetcher: Fetcher): Fetcher {
  return (url, init = {}) => {
    const signal = attempts.getStore()?.signal;
    return fetcher(url, signal ? { ...init, signal: init.signal ? AbortSignal.any([init.signal as AbortSignal, signal]) : signal } : init);
  };
}

/** Whether a subgraph fetch's operation is a mutation (the query planner writes the keyword first): never sent twice. */
export const isMutation = (query: string | undefined): boolean => /^\s*mutation\b/.test(query ?? '');

/**
 * Calls a subgraph over HTTP, carrying the request's identity and the gateway's shared secret,
 * through Apollo Gateway's public data source API (a RemoteGraphQLDataSource subclass given to
 * `buildService`). Each fetch has a time limit (SUBGRAPH_TIMEOUT_MS) and goes to the replicas of
 * SUBGRAPH_<NAME>_URL in turn; a query that finds its replica unreachable (refused, reset, timed
 * out before an answer, 502-504) is sent to the next, a mutation never is: it may have run, so it
 * is a 503 with Retry-After that the client settles (with its Idempotency-Key on REST). Every
 * replica unreachable: 503. A fetch whose client has gone (the request's signal aborted) is
 * abandoned: its connection closes, so the subgraph service's request signal fires too.
 */
export class IdentityForwardingDataSource extends RemoteGraphQLDataSource<RequestContext> {
  private readonly replicas: SubgraphReplicas;

  /** `urls` are the subgraph service's replicas' roots (SUBGRAPH_<NAME>_URL); GraphQL is served under `/graphql`. */
  constructor(
    urls: readonly string[],
    private readonly secret: string,
    private readonly timeoutMs: number,
    ownFetcher = true,
  ) {
    super({ url: graphqlUrl(urls[0]!), ...(ownFetcher ? { fetcher: createSubgraphFetcher() } : {}) });
    this.fetcher = withAttemptSignal(this.fetcher);
    this.replicas = new SubgraphReplicas(urls);
  }

  async process(options: GraphQLDataSourceProcessOptions<RequestContext>): Promise<GatewayGraphQLResponse> {
    const clientSignal = (options.context as Partial<RequestContext> | undefined)?.signal;
    const order = this.replicas.order();
    const tries = isMutation(options.request.query) ? order.slice(0, 1) : order;
    let lastFailure: unknown;
    for (const url of tries) {
      const limit = AbortSignal.timeout(this.timeoutMs);
      const signal = clientSignal ? AbortSignal.any([clientSignal, limit]) : limit;
      try {
        const response = await attempts.run({ url, signal }, () => super.process(options));
        this.replicas.up(url);
        return response;
      } catch (error) {
        // The client left: nothing to retry for, and the abort is its own answer.
        if (clientSignal?.aborted || !isUnreachable(error)) throw error;
        this.replicas.down(url);
        lastFailure = error;
      }
    }
    const what = tries.length < order.length ? 'a mutation whose replica' : tries.length > 1 ? `all ${tries.length} replicas` : 'its replica';
    throw new ServiceUnavailableError('Subgraph unavailable', SUBGRAPH_RETRY_AFTER_SECONDS, { cause: new Error(`subgraph fetch failed: ${what} could not be reached`, { cause: lastFailure }) });
  }

  willSendRequest(options: GraphQLDataSourceProcessOptions<RequestContext>): void {
    const attempt = attempts.getStore();
    // Apollo reads the URL from the request it built, after this hook: the attempt's replica is set there.
    if (attempt) options.request.http = { ...options.request.http!, url: graphqlUrl(attempt.url) };
    const http = options.request.http!;
    for (const [name, value] of Object.entries(identityHeaders(options.context as Partial<RequestContext>, this.secret))) http.headers.set(name, value);
  }

  /**
   * A replica that is not serving (502-504, from a proxy or a server shutting down) is unreachable.
   * A 400 is the subgraph refusing the client's input before running anything (a variable its
   * scalar refuses, which the gateway's SDL-built scalars let through): its own first error, with
   * its code, says what was wrong, where Apollo's would say only "400: Bad Request". Any other
   * status is Apollo's error.
   */
  async errorFromResponse(response: FetcherResponse): Promise<GraphQLError> {
    if (response.status === 502 || response.status === 503 || response.status === 504) return new ReplicaRefusedError(response.status);
    const error = await super.errorFromResponse(response);
    const body = (error.extensions.response as { body?: unknown } | undefined)?.body as { errors?: { message?: unknown; extensions?: { code?: unknown } }[] } | undefined;
    const first = response.status === 400 ? body?.errors?.[0] : undefined;
    if (typeof first?.message !== 'string') return error;
    return new GraphQLError(first.message, { extensions: { ...error.extensions, code: typeof first.extensions?.code === 'string' ? first.extensions.code : 'BAD_USER_INPUT' } });
  }
}

function graphqlUrl(base: string): string {
  return new URL('/graphql', base).toString();
}
