import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { IDENTITY_HEADERS } from '../subgraphs/shared/context';
import type { EntityBudget } from './entity-budget';
import type { RequestContext } from './request-context';

/** Calls a subgraph over HTTP, carrying the request's identity and the gateway's shared secret. */
export class IdentityForwardingDataSource extends RemoteGraphQLDataSource<RequestContext> {
  /** `baseUrl` is the subgraph service's root (SUBGRAPH_<NAME>_URL); GraphQL is served under `/graphql`. */
  constructor(baseUrl: string, private readonly secret: string, private readonly budget: EntityBudget) {
    super({ url: new URL('/graphql', baseUrl).toString() });
  }

  /** Refuses a fetch past the operation's entity budget before it leaves the process. */
  async process(options: GraphQLDataSourceProcessOptions<RequestContext>): Promise<GatewayGraphQLResponse> {
    const overBudget = this.budget.charge(options.context, options.request);
    return overBudget ? { errors: [overBudget] } : super.process(options);
  }

  willSendRequest(options: GraphQLDataSourceProcessOptions<RequestContext>): void {
    const headers = options.request.http!.headers;
    headers.set(IDENTITY_HEADERS.secret, this.secret);
    const ctx = options.context as Partial<RequestContext>;
    if (ctx.tenantId) headers.set(IDENTITY_HEADERS.tenant, ctx.tenantId);
    if (ctx.requestId) headers.set(IDENTITY_HEADERS.requestId, ctx.requestId);
  }
}
