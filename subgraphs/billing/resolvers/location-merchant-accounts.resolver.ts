import { processorOf } from '../processor/mode-processor';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import { requireScope } from '../../common/require-tenant';
import { requestLoader } from '../../common/request-loader';
import { MerchantAccountService } from '../services/merchant-account.service';
import { LocationRef } from '../types/directory-refs.type';
import { MerchantAccountView } from '../types/merchant-account.type';
import type { BillingContext } from '../billing-deps';

/** `Location.merchantAccounts`: billing's field on the tenant subgraph's Location. */
@Resolver(() => LocationRef)
export class LocationMerchantAccountsResolver {
  @FieldResolver(() => [MerchantAccountView], { description: 'The merchant accounts serving this location' })
  async merchantAccounts(@Root() location: LocationRef, @Ctx() ctx: SubgraphContext): Promise<MerchantAccountView[]> {
    return (await requestLoader(ctx, 'merchantAccountsOfLocation', (ids) => new MerchantAccountService(ctx.em, requireScope(ctx), processorOf(ctx as BillingContext), ctx.audit).ofLocations(ids)).load(String(location.id).toLowerCase())) ?? [];
  }
}
