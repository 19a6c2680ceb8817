import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../schema/actor';
import { RequestAudit } from './audit/request-audit';
import type { AuditReadLog } from './audit/read-log';
import { TenantScope } from './tenant-scope';

/** What the gateway tells a subgraph about the request: created once at the edge (docs/architecture.md, Rules of the house). */
export interface RequestIdentity {
  /** The authenticated tenant; null only for internal calls that act on no tenant. */
  tenantId: string | null;
  requestId: string;
  /** Aborted when the client went away before its answer (request-signal.ts); absent for calls no client waits on. Expensive work hands it to its FairShare. */
  signal?: AbortSignal;
  /** Who is calling, for audit records; absent for calls no one made (the platform's own), recorded as `system`. */
  actor?: Actor | null;
  /** The client's address at the edge, for audit records. */
  clientAddress?: string | null;
  /** The caller's Idempotency-Key on a REST route that honours it (RequestContext.idempotencyKey); absent otherwise. Never logged. */
  idempotencyKey?: string | null;
}

/** Context every resolver receives. `em` is forked for this request under the tenant guard (`TenantScope.guard`; repositories also scope every query themselves). */
export interface SubgraphContext<Deps = unknown> extends RequestIdentity {
  /** The caller's Idempotency-Key, null when it sent none: a write made under it is found by a retry with it. */
  readonly idempotencyKey: string | null;
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
  /** The request's side of the audit trail (platform/audit/request-audit.ts): PHI reads and changes are recorded through it. */
  readonly audit: RequestAudit;
  /**
   * The audit trail of a request that learns its tenant on the way, such as a public lead (the
   * campaign's webhook key names it): this request's actor, id and client address, in that
   * tenant's trail. `audit` of a request with no tenant records nothing.
   */
  auditFor(tenantId: string): RequestAudit;
}

/** Header names that carry the identity from the gateway to a subgraph over HTTP. */
export const IDENTITY_HEADERS = {
  tenant: 'x-tenant-id',
  requestId: 'x-request-id',
  actor: 'x-actor',
  clientAddress: 'x-client-address',
  idempotencyKey: 'x-idempotency-key',
  secret: 'x-internal-secret',
} as const;

/**
 * Builds a resolver context whose entity manager is forked lazily: a request that never touches
 * this subgraph's database pays nothing, and one that does gets its own identity map.
 */
export function createSubgraphContext<Deps>(rootEm: EntityManager, identity: RequestIdentity, publicUrl: string, deps: Deps, reads: AuditReadLog | null = null): SubgraphContext<Deps> {
  return new LazyForkContext(rootEm, identity, publicUrl, deps, reads);
}

/**
 * A class, not an object literal with `get em()`: each literal's own getter closure made V8 keep
 * the context, its fork and everything they reached alive through young-generation collections
 * until the next full one, so every request's objects were promoted to the old generation (~9 KB
 * a request under GET /tenant/public: most of the old generation's growth under load, which a
 * worker's resident memory follows). A getter on the prototype holds nothing of a request.
 */
class LazyForkContext<Deps> implements SubgraphContext<Deps> {
  readonly tenantId: string | null;
  readonly requestId: string;
  readonly signal: AbortSignal | undefined;
  readonly actor: Actor | null;
  readonly idempotencyKey: string | null;
  readonly scope: TenantScope | null;
  // Not `#private`: Apollo Server runs a subgraph operation on a copy of its context (prototype and
  // own properties), which a private field would not follow.
  private readonly rootEm: EntityManager;
  private forked: EntityManager | undefined;
  private readonly identity: RequestIdentity;
  private readonly readLog: AuditReadLog | null;
  private audited: RequestAudit | undefined;

  constructor(rootEm: EntityManager, identity: RequestIdentity, readonly publicUrl: string, readonly deps: Deps, reads: AuditReadLog | null) {
    this.rootEm = rootEm;
    this.identity = identity;
    this.readLog = reads;
    this.tenantId = identity.tenantId;
    this.requestId = identity.requestId;
    this.signal = identity.signal;
    this.actor = identity.actor ?? null;
    this.idempotencyKey = identity.idempotencyKey ?? null;
    this.scope = identity.tenantId ? TenantScope.ofRequest(identity) : null;
  }

  get em(): EntityManager {
    if (!this.forked) {
      this.forked = this.rootEm.fork();
      // The tenancy rule is the repositories' explicit scope; the default `tenant` filter is the guard under every ORM
      // query, which throws when its parameter is unset (docs/architecture.md, Stack notes): a request without a tenant
      // can only reach queries that disable the filter on purpose.
      this.scope?.guard(this.forked);
    }
    return this.forked;
  }

  get reads(): EntityManager {
    return this.forked ?? this.rootEm;
  }

  get audit(): RequestAudit {
    if (!this.audited) {
      const { tenantId } = this.identity;
      this.audited = tenantId ? this.auditFor(tenantId) : new RequestAudit(null, this.readLog);
    }
    return this.audited;
  }

  auditFor(tenantId: string): RequestAudit {
    const { requestId, actor, clientAddress } = this.identity;
    return new RequestAudit({ tenantId, requestId, actor: actor ?? { kind: 'system', id: null }, clientAddress: clientAddress ?? null }, this.readLog);
  }
}
