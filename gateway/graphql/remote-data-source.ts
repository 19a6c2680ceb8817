import './apollo-telemetry';
import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { IDENTITY_HEADERS } from '../../platform/context';
import type { RequestContext } from '../../schema/request-context';
import { createSubgraphFetcher } from './subgraph-fetcher';

/** Calls a subgraph over HTTP, carrying the request's identity and the gateway's shared secret. */
export class IdentityForwardingDataSource extends RemoteGraphQLDataSource<RequestContext> {
  /** `baseUrl` is the subgraph service's root (SUBGRAPH_<NAME>_URL); GraphQL is served under `/graphql`. */
  constructor(baseUrl: string, private readonly secret: string, ownFetcher = true) {
    super({ url: new URL('/graphql', baseUrl).toString(), ...(ownFetcher ? { fetcher: createSubgraphFetcher() } : {}) });
  }

  willSendRequest(options: GraphQLDataSourceProcessOptions<RequestContext>): void {
    const headers = options.request.http!.headers;
    headers.set(IDENTITY_HEADERS.secret, this.secret);
    const ctx = options.context as Partial<RequestContext>;
    if (ctx.tenantId) headers.set(IDENTITY_HEADERS.tenant, ctx.tenantId);
    if (ctx.requestId) headers.set(IDENTITY_HEADERS.requestId, ctx.requestId);
  }
}
