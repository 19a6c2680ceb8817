import type { SubgraphContext } from '../../../platform/context';
import { isUuid } from '../../../platform/ids';
import { requireScope } from '../../common/require-tenant';
import { TenantRepository } from '../repositories/tenant.repository';
import { toTenantView, type TenantView } from '../tenant-view';

/** Resolves `Tenant` references from other subgraphs. Only the caller's own tenant resolves: any other id reads as null. */
export async function resolveTenantReference(reference: { id: string }, ctx: SubgraphContext): Promise<TenantView | null> {
  if (!ctx.tenantId || !isUuid(reference.id) || reference.id.toLowerCase() !== ctx.tenantId.toLowerCase()) return null;
  const record = await new TenantRepository(ctx.reads, requireScope(ctx)).current();
  return record && toTenantView(record, ctx.publicUrl);
}
