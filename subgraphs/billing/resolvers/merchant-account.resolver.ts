import { processorOf } from '../processor/mode-processor';
import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { requireScope } from '../../common/require-tenant';
import { CreateMerchantAccountInput } from '../inputs/merchant-account.input';
import { MAX_MERCHANT_ACCOUNTS } from '../repositories/merchant-account.repository';
import { MerchantAccountService } from '../services/merchant-account.service';
import { LocationRef, reference } from '../types/directory-refs.type';
import { MerchantAccountView } from '../types/merchant-account.type';
import type { BillingContext } from '../billing-deps';

const service = (ctx: BillingContext) => new MerchantAccountService(ctx.em, requireScope(ctx), processorOf(ctx), ctx.audit);

/** Merchant accounts (contract part 4.8) and their locations, a federation reference each. */
@Resolver(() => MerchantAccountView)
export class MerchantAccountResolver {
  @Query(() => [MerchantAccountView], { description: `Every merchant account of the tenant, the default first: a bounded list (a tenant holds at most ${MAX_MERCHANT_ACCOUNTS}), not a connection` })
  merchantAccounts(@Ctx() ctx: BillingContext): Promise<MerchantAccountView[]> {
    return service(ctx).list();
  }

  @Mutation(() => MerchantAccountView, { description: "Registers a merchant account; the tenant's first becomes the default" })
  createMerchantAccount(@Arg('input', () => CreateMerchantAccountInput) input: CreateMerchantAccountInput, @Ctx() ctx: BillingContext): Promise<MerchantAccountView> {
    return service(ctx).create(input);
  }

  @Mutation(() => MerchantAccountView, { description: 'Makes the account (by its processor id) the default; the previous default is unset' })
  setDefaultMerchantAccount(@Arg('id', () => ID) id: string, @Ctx() ctx: BillingContext): Promise<MerchantAccountView> {
    return service(ctx).setDefault(id);
  }

  @FieldResolver(() => [LocationRef], { description: 'The locations the account serves, resolved by the tenant subgraph' })
  locations(@Root() account: MerchantAccountView): LocationRef[] {
    return account.locationIds.map(reference);
  }
}
