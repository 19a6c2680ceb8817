import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import { toPage, type Page } from '../../common/pagination';
import { requireScope } from '../../common/require-tenant';
import { validatePage } from '../../common/validate-page';
import { ApiKeyRepository } from '../repositories/api-key.repository';
import { TenantRepository } from '../repositories/tenant.repository';
import { keyKind, keyPrefix } from '../services/api-key.service';
import { ApiKeyListArgs, ApiKeyPage, type ApiKeyType } from '../types/api-key.type';

/** The calling tenant's own API keys, for its staff to audit (issuing and revoking is the operator's). */
@Resolver()
export class ApiKeyResolver {
  @Query(() => ApiKeyPage, { description: "The calling tenant's API keys, newest first by default" })
  async apiKeys(@Args() args: ApiKeyListArgs, @Ctx() ctx: SubgraphContext): Promise<Page<ApiKeyType>> {
    const scope = requireScope(ctx);
    validatePage(args);
    const [keys, total] = await new ApiKeyRepository(ctx.em, scope).page(args);
    // A tenant's keys share its mode: a test key lists its twin's (test) keys, a live key the live ones.
    const livemode = (await new TenantRepository(ctx.reads, scope).current())?.livemode ?? true;
    const items = keys.map((k) => ({ id: k.id, name: k.name, prefix: keyPrefix(k, livemode), kind: keyKind(k), livemode, scopes: k.scopes, createdAt: k.createdAt, expiresAt: k.expiresAt, revokedAt: k.revokedAt }));
    return toPage(items, total, args);
  }
}
