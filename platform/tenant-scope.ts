import { UnauthenticatedError } from '../schema/errors';

/** What `TenantScope.guard` needs of an entity manager: MikroORM's filter parameters. */
interface FilteredEntityManager {
  setFilterParams(name: string, args: Record<string, unknown>): void;
}

/**
 * The tenant a repository's queries are limited to (docs/architecture.md, Rules of the house: the
 * tenancy rule). Every tenant-scoped repository takes one in its constructor and puts
 * `scope.tenantId` into every statement it runs (`where: { tenantId }` for the ORM, `tenant_id = ?`
 * bound for SQL). A distinct type, not a string: the private constructor and member mean a plain
 * id cannot be passed where a scope is expected, so a scope is only ever made by the two
 * factories below, each named for where its tenant id comes from.
 */
export class TenantScope {
  private readonly kind = 'tenant-scope';

  private constructor(readonly tenantId: string) {}

  /** The scope of a request: the tenant the edge authenticated. Throws UNAUTHENTICATED without one. */
  static ofRequest(identity: { tenantId: string | null }): TenantScope {
    if (!identity.tenantId) throw new UnauthenticatedError('A tenant is required');
    return new TenantScope(identity.tenantId);
  }

  /**
   * The scope of a row read without one (a job's own row, a campaign found by its webhook key, a
   * tenant the operator just created): the code then acts for the tenant the row belongs to.
   * Only unscoped repository methods produce such rows (docs/architecture.md, Rules of the house).
   */
  static ofStoredRow(tenantId: string): TenantScope {
    return new TenantScope(tenantId);
  }

  /**
   * Puts `em` under the tenant guard for this scope: the ORM's default `tenant` filter
   * (subgraphs/common/base.entity.ts) then limits every read, update and delete of a tenant-owned
   * entity to this tenant, and throws where its parameter was never set. Every entity manager that
   * acts for a tenant is set here (a request's fork, the demo seeder, a job acting for its row's
   * tenant). Returns `em`.
   */
  guard<T extends FilteredEntityManager>(em: T): T {
    em.setFilterParams('tenant', { tenantId: this.tenantId });
    return em;
  }
}
