import type { ChainVerdict } from '../../platform/audit/audit-chain';
import { OPERATOR_CLI, type OperatorPeople, type ApiKeySummary, type IssuedKey, type KeyChangeOrigin, type KeyLimits, type TenantAccess, type TenantSummary } from '../../subgraphs/tenant';
import type { DemoSeeder } from '../database/platform';

/** The operator's control plane: tenants and their keys (docs/decisions.md, Tenancy), shared by `/admin` and the CLI. */
export class AdminService {
  constructor(
    private readonly tenants: TenantAccess,
    private readonly seeders: DemoSeeder[],
    /** Called after a revocation, and awaited, so cached verifications end (in every worker) before the answer. */
    private readonly onRevoke: () => void | Promise<void> = () => undefined,
  ) {}

  /** Creates a tenant and its first key in one transaction, then fills it with demo data when asked. */
  async createTenant(name: string, demoData: boolean, by: KeyChangeOrigin = OPERATOR_CLI): Promise<{ tenant: TenantSummary; apiKey: string }> {
    const created = await this.tenants.createTenantWithKey(name, by);
    if (demoData) for (const seed of this.seeders) await seed(created.tenant.id);
    return created;
  }

  /** Issues another key for a tenant, full or restricted by `limits` (docs/access.md); unknown tenant -> NotFoundError. */
  issueKey(tenantId: string, name: string | null = null, limits: KeyLimits = {}, by: KeyChangeOrigin = OPERATOR_CLI): Promise<IssuedKey> {
    return this.tenants.issueKey(tenantId, name, limits, by);
  }

  /** Revokes a key; unknown key -> NotFoundError. */
  async revokeKey(keyId: string, by: KeyChangeOrigin = OPERATOR_CLI): Promise<void> {
    await this.tenants.revokeKey(keyId, by);
    await this.onRevoke();
  }

  /** The tenant's keys without secrets. */
  listKeys(tenantId: string): Promise<ApiKeySummary[]> {
    return this.tenants.listKeys(tenantId);
  }

  /** Verifies a tenant's audit chain (docs/audit.md); an unknown tenant is 404. */
  verifyAudit(tenantId: string): Promise<ChainVerdict> {
    return this.tenants.verifyAudit(tenantId);
  }

  /** A tenant's people, as the operator (the CLI) handles them. */
  people(tenantId: string): OperatorPeople {
    return this.tenants.people(tenantId);
  }

  /** Accepts an invitation with a password (the demo start's own person). */
  acceptInvitation(token: string, password: string): Promise<{ userId: string; tenantId: string }> {
    return this.tenants.acceptInvitation(token, password, { requestId: null, clientAddress: null });
  }

  /** How many tenants exist (the first start creates a demo tenant only on an empty database). */
  countTenants(): Promise<number> {
    return this.tenants.countTenants();
  }
}
