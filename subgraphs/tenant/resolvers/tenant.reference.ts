import type { SubgraphContext } from '../../../platform/context';
import { requireScope } from '../../common/require-tenant';
import { TenantRepository } from '../repositories/tenant.repository';
import { toTenantView, type TenantView } from '../tenant-view';

/** Resolves `Tenant` references from other subgraphs. Only the caller's own tenant resolves: any other id reads as null. */
export async function resolveTenantReference(reference: { id: string }, ctx: SubgraphContext): Promise<TenantView | null> {
  // An id of any other shape, or any other tenant's, is not the caller's tenant: compared as text, it never reaches a query.
  if (!ctx.tenantId || String(reference.id).toLowerCase() !== ctx.tenantId.toLowerCase()) return null;
  const record = await new TenantRepository(ctx.reads, requireScope(ctx)).current();
  return record && toTenantView(record, ctx.publicUrl);
}
