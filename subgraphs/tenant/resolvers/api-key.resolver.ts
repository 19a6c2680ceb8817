import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import { toConnection, type Connection } from '../../common/connection';
import { keyValues } from '../../common/keyset';
import { listWindow } from '../../common/list-window';
import { requireScope } from '../../common/require-tenant';
import { apiKeyKeys, ApiKeyRepository } from '../repositories/api-key.repository';
import { TenantRepository } from '../repositories/tenant.repository';
import { keyKind, keyPrefix } from '../services/api-key.service';
import { ApiKeyConnection, ApiKeyListArgs, type ApiKeyType } from '../types/api-key.type';

/** The calling tenant's own API keys, for its staff to audit (issuing and revoking is the operator's). */
@Resolver()
export class ApiKeyResolver {
  @Query(() => ApiKeyConnection, { description: "The calling tenant's API keys, newest first by default" })
  async apiKeys(@Args() args: ApiKeyListArgs, @Ctx() ctx: SubgraphContext): Promise<Connection<ApiKeyType>> {
    const scope = requireScope(ctx);
    const keys = apiKeyKeys(args.sortDirection);
    const slice = await new ApiKeyRepository(ctx.em, scope).page(args, listWindow(args, keys));
    // A tenant's keys share its mode: a test key lists its twin's (test) keys, a live key the live ones.
    const livemode = (await new TenantRepository(ctx.reads, scope).current())?.livemode ?? true;
    return toConnection(slice, keyValues(keys), (k) => ({ id: k.id, name: k.name, prefix: keyPrefix(k, livemode), kind: keyKind(k), livemode, scopes: k.scopes, createdAt: k.createdAt, expiresAt: k.expiresAt, revokedAt: k.revokedAt }));
  }
}
