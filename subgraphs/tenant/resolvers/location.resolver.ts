import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import type { Connection } from '../../common/connection';
import { requireScope } from '../../common/require-tenant';
import { CreateLocationInput } from '../inputs/create-location.input';
import { LocationService } from '../services/location.service';
import { LocationConnection, LocationListArgs, LocationType } from '../types/location.type';

/** The tenant's locations. */
@Resolver(() => LocationType)
export class LocationResolver {
  @Query(() => LocationConnection, { description: "The tenant's locations by name" })
  locations(@Args() args: LocationListArgs, @Ctx() ctx: SubgraphContext): Promise<Connection<LocationType>> {
    return new LocationService(ctx.em, requireScope(ctx), ctx.audit).list(args);
  }

  @Query(() => LocationType, {
    nullable: true,
    description: 'One location; null with a NOT_FOUND error for an unknown id',
  })
  location(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<LocationType> {
    return new LocationService(ctx.em, requireScope(ctx), ctx.audit).get(id);
  }

  @Mutation(() => LocationType, { description: 'Adds a location; a physical one needs addressLineOne and city' })
  createLocation(@Arg('input', () => CreateLocationInput) input: CreateLocationInput, @Ctx() ctx: SubgraphContext): Promise<LocationType> {
    return new LocationService(ctx.em, requireScope(ctx), ctx.audit).create(input);
  }
}
