import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import type { Connection } from '../../common/connection';
import { requireScope } from '../../common/require-tenant';
import { CreateProviderInput } from '../inputs/create-provider.input';
import { ProviderService } from '../services/provider.service';
import { LocationType } from '../types/location.type';
import { ProviderConnection, ProviderListArgs, ProviderType } from '../types/provider.type';

/** The tenant's providers. */
@Resolver(() => ProviderType)
export class ProviderResolver {
  @Query(() => ProviderConnection, { description: "The tenant's providers by last, then first name" })
  providers(@Args() args: ProviderListArgs, @Ctx() ctx: SubgraphContext): Promise<Connection<ProviderType>> {
    return new ProviderService(ctx.em, requireScope(ctx), ctx.audit).list(args);
  }

  @Query(() => ProviderType, {
    nullable: true,
    description: 'One provider; null with a NOT_FOUND error for an unknown id',
  })
  provider(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<ProviderType> {
    return new ProviderService(ctx.em, requireScope(ctx), ctx.audit).get(id);
  }

  @Mutation(() => ProviderType, { description: "Adds a provider working at some of the tenant's locations" })
  createProvider(@Arg('input', () => CreateProviderInput) input: CreateProviderInput, @Ctx() ctx: SubgraphContext): Promise<ProviderType> {
    return new ProviderService(ctx.em, requireScope(ctx), ctx.audit).create(input);
  }

  @FieldResolver(() => [LocationType], { description: 'The locations the provider works at, by name' })
  locations(@Root() provider: ProviderType, @Ctx() ctx: SubgraphContext): Promise<LocationType[]> {
    return new ProviderService(ctx.em, requireScope(ctx), ctx.audit).locationsOf(provider);
  }
}
