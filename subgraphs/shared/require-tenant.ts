import { UnauthenticatedError } from '../../schema/errors';
import type { SubgraphContext } from './context';

/** The request's tenant; resolvers of tenant data call this instead of trusting a nullable field. */
export function requireTenant(ctx: SubgraphContext): string {
  if (!ctx.tenantId) throw new UnauthenticatedError('A tenant is required');
  return ctx.tenantId;
}
