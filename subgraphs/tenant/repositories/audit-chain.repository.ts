import type { EntityManager } from '@mikro-orm/postgresql';
import { verifyChain, type ChainVerdict } from '../../../platform/audit/audit-chain';
import type { TenantScope } from '../../../platform/tenant-scope';

/** The audit trail's chain of one tenant, read whole for the operator's verification (platform/audit/audit-chain.ts). */
export class AuditChainRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** Walks the scope's chain and reports every break. */
  verify(): Promise<ChainVerdict> {
    return verifyChain((sql, params) => this.em.getConnection().execute(sql, params), this.scope.tenantId);
  }
}
