import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError } from '../../../schema/errors';
import { Tenant } from '../entities/tenant.entity';
import type { UpdateTenantInput } from '../inputs/update-tenant.input';
import { TenantRepository, type TenantRecord } from '../repositories/tenant.repository';
import { validateTenantUpdate } from './tenant-rules';
import { recordEvent } from '../../shared/jobs/record-event';

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

  /** Applies a partial update after validating all of it: a bad field writes nothing. */
  async update(tenantId: string, input: UpdateTenantInput): Promise<TenantRecord> {
    const tenant = await this.load(tenantId);
    const changes = validateTenantUpdate(input, tenant.settings);
    Object.assign(tenant, changes);
    // Same transaction as the change: no event without its change (issue 7).
    await this.em.transactional((tx) => recordEvent(tx, tenantId, 'tenant.updated', { id: tenantId, changedFields: Object.keys(changes).sort() }));
    return this.current(tenantId);
  }

  /** The tenant entity for a write; the tenant filter makes another tenant's id read as absent. */
  async load(tenantId: string): Promise<Tenant> {
    const tenant = await this.em.findOne(Tenant, { id: tenantId });
    if (!tenant) throw new NotFoundError('Tenant not found');
    return tenant;
  }
}
