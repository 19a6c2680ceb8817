import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError } from '../../../schema/errors';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import type { Tenant } from '../entities/tenant.entity';
import type { UpdateTenantInput } from '../inputs/update-tenant.input';
import { TenantRepository, type PublicTenantRecord, type TenantRecord } from '../repositories/tenant.repository';
import { validateTenantUpdate } from './tenant-rules';
import { recordEvent } from '../../common/jobs/record-event';

/** Reads and changes the request's own tenant: every read goes through a repository bound to its scope. */
export class TenantService {
  /** `audit`: the request's side of the audit trail; `update` needs it (reads and the operator's `create` do not). */
  constructor(private readonly em: EntityManager, private readonly audit: RequestAudit | null = null) {}

  /** The calling tenant's record. A tenant deleted under a live key reads as not found. */
  async current(scope: TenantScope): Promise<TenantRecord> {
    const tenant = await new TenantRepository(this.em, scope).current();
    if (!tenant) throw new NotFoundError('Tenant not found');
    return tenant;
  }

  /** The calling tenant as patients see it; a deleted one reads as not found, as in `current`. */
  async currentPublic(scope: TenantScope): Promise<PublicTenantRecord> {
    const tenant = await new TenantRepository(this.em, scope).currentPublic();
    if (!tenant) throw new NotFoundError('Tenant not found');
    return tenant;
  }

  /** Creates a tenant (operator action: no tenant scope yet). */
  async create(name: string): Promise<Tenant> {
    return TenantRepository.createUnscoped(this.em, name);
  }

  /** Applies a partial update after validating all of it: a bad field writes nothing. */
  async update(scope: TenantScope, input: UpdateTenantInput): Promise<TenantRecord> {
    if (!this.audit) throw new Error('TenantService.update needs the request audit');
    const audit = this.audit;
    const tenant = await this.load(scope);
    const changes = validateTenantUpdate(input, tenant.settings);
    Object.assign(tenant, changes);
    // Same transaction as the change: no event and no audit record without its change (issue 7, docs/audit.md).
    await this.em.transactional(async (tx) => {
      await recordEvent(tx, scope, 'tenant.updated', { id: scope.tenantId, changedFields: Object.keys(changes).sort() });
      await audit.change(tx, 'tenant.update', 'tenant', [scope.tenantId]);
    });
    return this.current(scope);
  }

  /** The tenant entity for a write, in this service's unit of work. */
  async load(scope: TenantScope): Promise<Tenant> {
    const tenant = await new TenantRepository(this.em, scope).loadForUpdate();
    if (!tenant) throw new NotFoundError('Tenant not found');
    return tenant;
  }
}
