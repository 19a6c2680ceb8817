import { UnauthenticatedError } from '../../schema/errors';
import type { SubgraphContext } from '../../platform/context';
import { TenantScope } from '../../platform/tenant-scope';

/** The request's tenant; resolvers of tenant data call this instead of trusting a nullable field. */
export function requireTenant(ctx: SubgraphContext): string {
  if (!ctx.tenantId) throw new UnauthenticatedError('A tenant is required');
  return ctx.tenantId;
}

/** The request's tenant scope, for the repositories behind a resolver; UNAUTHENTICATED without a tenant. */
export function requireScope(ctx: SubgraphContext): TenantScope {
  return ctx.scope ?? TenantScope.ofRequest(ctx);
}
