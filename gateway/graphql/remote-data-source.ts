import './apollo-telemetry';
import { AsyncLocalStorage } from 'node:async_hooks';
import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import type { Fetcher } from '@apollo/utils.fetcher';
import { identityHeaders } from './identity-headers';
import type { RequestContext } from '../../schema/request-context';
import { createSubgraphFetcher } from '../../platform/speed/subgraph-fetcher';

/**
 * The signal of the request a fetch is sent for. RemoteGraphQLDataSource builds the fetcher's
 * init itself and hands it no context, so the signal reaches the fetcher through the async
 * context of `process` instead.
 */
const fetchSignal = new AsyncLocalStorage<AbortSignal>();

/** The fetcher given the signal of the request being served, when it has one. */
function withRequestSignal(fetcher: Fetcher): Fetcher {
  return (url, init = {}) => {
    const signal = init.signal ?? fetchSignal.getStore();
    return fetcher(url, signal ? { ...init, signal } : init);
  };
}

/**
 * Calls a subgraph over HTTP, carrying the request's identity and the gateway's shared secret. A
 * fetch whose client has gone (the request's signal aborted) is abandoned: its connection closes,
 * so the subgraph service's request signal fires too and what it queued for it is dropped.
 */
export class IdentityForwardingDataSource extends RemoteGraphQLDataSource<RequestContext> {
  /** `baseUrl` is the subgraph service's root (SUBGRAPH_<NAME>_URL); GraphQL is served under `/graphql`. */
  constructor(baseUrl: string, private readonly secret: string, ownFetcher = true) {
    super({ url: new URL('/graphql', baseUrl).toString(), ...(ownFetcher ? { fetcher: withRequestSignal(createSubgraphFetcher()) } : {}) });
  }

  process(options: GraphQLDataSourceProcessOptions<RequestContext>): Promise<GatewayGraphQLResponse> {
    const signal = (options.context as Partial<RequestContext>).signal;
    return signal ? fetchSignal.run(signal, () => super.process(options)) : super.process(options);
  }

  willSendRequest(options: GraphQLDataSourceProcessOptions<RequestContext>): void {
    const headers = options.request.http!.headers;
    for (const [name, value] of Object.entries(identityHeaders(options.context as Partial<RequestContext>, this.secret))) headers.set(name, value);
  }
}
