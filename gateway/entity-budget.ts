import type { GatewayGraphQLRequest } from '@apollo/server-gateway-interface';
import type { GraphQLFormattedError } from 'graphql';
import { RESPONSE_TOO_LARGE } from './graphql-limits';

/**
 * How many entities one operation may have the gateway look up in subgraphs. A query that cycles
 * between subgraphs (`merchantAccounts { locations { merchantAccounts ... } }`) multiplies its
 * objects per level, and each level is one `_entities` fetch carrying every object of the level
 * before: summing those per operation stops the growth at a fetch, before it fills the heap,
 * whatever the depth and cost limits let through. Keyed by the request's context object, which
 * the gateway hands to every fetch of one operation.
 */
export class EntityBudget {
  private readonly spent = new WeakMap<object, number>();

  constructor(private readonly max: number) {}

  /** Charges a fetch to its operation; the error to answer instead of fetching when the budget is spent. */
  charge(context: object | undefined, request: GatewayGraphQLRequest): GraphQLFormattedError | null {
    const representations = request.variables?.representations;
    if (!context || !Array.isArray(representations)) return null;
    const total = (this.spent.get(context) ?? 0) + representations.length;
    this.spent.set(context, total);
    if (total <= this.max) return null;
    return {
      message: `The operation would fetch more than ${this.max} objects; ask for fewer levels or items`,
      extensions: { code: RESPONSE_TOO_LARGE, maxEntities: this.max },
    };
  }
}
