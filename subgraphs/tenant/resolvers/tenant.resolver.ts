import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../platform/context';
import { requireScope } from '../../common/require-tenant';
import { UpdateTenantInput } from '../inputs/update-tenant.input';
import { TenantService } from '../services/tenant.service';
import { toPublicTenantView, toTenantView, type PublicTenantView, type TenantView } from '../tenant-view';
import { PublicTenantType, TenantType } from '../types/tenant.type';

/** Root fields for the calling tenant's own record. */
@Resolver(() => TenantType)
export class TenantResolver {
  @Query(() => TenantType, { description: 'The calling tenant, whole (staff only)' })
  async tenant(@Ctx() ctx: SubgraphContext): Promise<TenantView> {
    return toTenantView(await new TenantService(ctx.reads).current(requireScope(ctx)), ctx.publicUrl);
  }

  @Query(() => PublicTenantType, { description: 'The calling tenant, as shown to patients' })
  async publicTenant(@Ctx() ctx: SubgraphContext): Promise<PublicTenantView> {
    return toPublicTenantView(await new TenantService(ctx.reads).currentPublic(requireScope(ctx)), ctx.publicUrl);
  }

  @Mutation(() => TenantType, { description: 'Changes the fields sent, after validating all of them; returns the whole tenant' })
  async updateTenant(@Arg('input', () => UpdateTenantInput) input: UpdateTenantInput, @Ctx() ctx: SubgraphContext): Promise<TenantView> {
    return toTenantView(await new TenantService(ctx.em, ctx.audit).update(requireScope(ctx), input), ctx.publicUrl);
  }
}
