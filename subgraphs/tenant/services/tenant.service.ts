import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError } from '../../../schema/errors';
import { Tenant } from '../entities/tenant.entity';
import { TenantRepository, type TenantRecord } from '../repositories/tenant.repository';

/** Reads and changes the request's own tenant; the tenant filter keeps every other one out of reach. */
export class TenantService {
  constructor(private readonly em: EntityManager) {}

  /** The calling tenant's record. A tenant deleted under a live key reads as not found. */
  async current(tenantId: string): Promise<TenantRecord> {
    const tenant = await new TenantRepository(this.em).findById(tenantId);
    if (!tenant) throw new NotFoundError('Tenant not found');
    return tenant;
  }

  /** Creates a tenant (operator action: no tenant scope yet). */
  async create(name: string): Promise<Tenant> {
    const tenant = this.em.create(Tenant, { name } as never);
    await this.em.persistAndFlush(tenant);
    return tenant;
  }
}
