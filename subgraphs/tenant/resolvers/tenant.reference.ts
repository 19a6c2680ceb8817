import type { SubgraphContext } from '../../shared/context';
import { isUuid } from '../../shared/ids';
import { Tenant } from '../entities/tenant.entity';

/** Resolves `Tenant` references from other subgraphs; the tenant filter hides every other tenant. */
export async function resolveTenantReference(reference: { id: string }, ctx: SubgraphContext): Promise<Tenant | null> {
  if (!ctx.tenantId || !isUuid(reference.id)) return null;
  return ctx.em.findOne(Tenant, { id: reference.id });
}
