import type { EntityManager } from '@mikro-orm/postgresql';
import { TenantScope } from './tenant-scope';

/** What the gateway tells a subgraph about the request: created once at the edge (docs/architecture.md, Rules of the house). */
export interface RequestIdentity {
  /** The authenticated tenant; null only for internal calls that act on no tenant. */
  tenantId: string | null;
  requestId: string;
}

/** Context every resolver receives. `em` is forked for this request with the tenant filter set (a guard only: repositories scope every query themselves). */
export interface SubgraphContext<Deps = unknown> extends RequestIdentity {
  readonly em: EntityManager;
  /**
   * For prepared statements, which need a connection and nothing of a unit of work: `em` once it
   * is forked (it may hold a transaction), else the subgraph's root entity manager, so that a
   * request that only reads skips the fork (a measurable part of the hot path: bench/RESULTS.md).
   */
  readonly reads: EntityManager;
  /** The request's tenant scope, made once from `tenantId`; null for internal calls that act on no tenant. Resolvers use `requireScope(ctx)`. */
  readonly scope: TenantScope | null;
  /** Absolute base URL of the public API, for links the subgraph hands out (asset URLs). */
  readonly publicUrl: string;
  /** The subgraph's collaborators, built once by its definition's `configure` (SubgraphDefinition). */
  readonly deps: Deps;
}

/** Header names that carry the identity from the gateway to a subgraph over HTTP. */
export const IDENTITY_HEADERS = {
  tenant: 'x-tenant-id',
  requestId: 'x-request-id',
  secret: 'x-internal-secret',
} as const;

/**
 * Builds a resolver context whose entity manager is forked lazily: a request that never touches
 * this subgraph's database pays nothing, and one that does gets its own identity map.
 */
export function createSubgraphContext<Deps>(rootEm: EntityManager, identity: RequestIdentity, publicUrl: string, deps: Deps): SubgraphContext<Deps> {
  let em: EntityManager | undefined;
  const scope = identity.tenantId ? TenantScope.ofRequest(identity) : null;
  return {
    tenantId: identity.tenantId,
    requestId: identity.requestId,
    scope,
    publicUrl,
    deps,
    get em() {
      if (!em) {
        em = rootEm.fork();
        // The tenancy rule is the repositories' explicit scope; the default `tenant` filter is a second guard that throws
        // when its parameter is unset (docs/architecture.md, Stack notes): a request without a tenant can only reach
        // queries that disable the filter on purpose.
        if (identity.tenantId) em.setFilterParams('tenant', { tenantId: identity.tenantId });
      }
      return em;
    },
    get reads() {
      return em ?? rootEm;
    },
  };
}
