import type { MikroORM } from '@mikro-orm/postgresql';
import { ApiKeyService, type ApiKeySummary, type IssuedKey } from '../../subgraphs/tenant/services/api-key.service';
import { Tenant } from '../../subgraphs/tenant/entities/tenant.entity';
import { TenantService } from '../../subgraphs/tenant/services/tenant.service';
import type { DemoSeeder } from '../platform';

/** A tenant as the operator sees it on creation. */
export interface TenantSummary {
  id: string;
  name: string;
  timezone: string;
  createdAt: string;
}

/** The operator's control plane: tenants and their keys (docs/decisions.md, Tenancy), shared by `/admin` and the CLI. */
export class AdminService {
  constructor(
    private readonly tenantOrm: MikroORM,
    private readonly seeders: DemoSeeder[],
    /** Called after a revocation, and awaited, so cached verifications end (in every worker) before the answer. */
    private readonly onRevoke: () => void | Promise<void> = () => undefined,
  ) {}

  /** Creates a tenant and its first key in one transaction, then fills it with demo data when asked. */
  async createTenant(name: string, demoData: boolean): Promise<{ tenant: TenantSummary; apiKey: string }> {
    const { tenant, key } = await this.tenantOrm.em.fork().transactional(async (em) => {
      const created = await new TenantService(em).create(name);
      return { tenant: created, key: await new ApiKeyService(em).issue(created.id, 'initial') };
    });
    if (demoData) for (const seed of this.seeders) await seed(tenant.id);
    return { tenant: summarize(tenant), apiKey: key.apiKey };
  }

  /** Issues another key for a tenant; unknown tenant -> NotFoundError. */
  issueKey(tenantId: string, name: string | null = null): Promise<IssuedKey> {
    return new ApiKeyService(this.tenantOrm.em.fork()).issue(tenantId, name);
  }

  /** Revokes a key; unknown key -> NotFoundError. */
  async revokeKey(keyId: string): Promise<void> {
    await new ApiKeyService(this.tenantOrm.em.fork()).revoke(keyId);
    await this.onRevoke();
  }

  /** The tenant's keys without secrets. */
  listKeys(tenantId: string): Promise<ApiKeySummary[]> {
    return new ApiKeyService(this.tenantOrm.em.fork()).list(tenantId);
  }

  /** How many tenants exist (the first start creates a demo tenant only on an empty database). */
  countTenants(): Promise<number> {
    return this.tenantOrm.em.fork().count(Tenant, {}, { filters: false });
  }
}

function summarize(tenant: Tenant): TenantSummary {
  return { id: tenant.id, name: tenant.name, timezone: tenant.timezone, createdAt: tenant.createdAt.toISOString() };
}
