import { Ctx, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../shared/context';
import { requireTenant } from '../../shared/require-tenant';
import type { TenantRecord } from '../repositories/tenant.repository';
import { TenantService } from '../services/tenant.service';
import { PublicTenantType, TenantType } from '../types/tenant.type';

/** Root fields for the calling tenant's own record. */
@Resolver(() => TenantType)
export class TenantResolver {
  @Query(() => TenantType, { description: 'The calling tenant, whole (staff only)' })
  tenant(@Ctx() ctx: SubgraphContext): Promise<TenantRecord> {
    return new TenantService(ctx.em).current(requireTenant(ctx));
  }

  @Query(() => PublicTenantType, { description: 'The calling tenant, as shown to patients' })
  publicTenant(@Ctx() ctx: SubgraphContext): Promise<TenantRecord> {
    return new TenantService(ctx.em).current(requireTenant(ctx));
  }
}
