import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError } from '../../../schema/errors';
import { recordChange } from '../../../platform/audit/request-audit';
import type { Actor } from '../../../schema/actor';
import { Tenant } from '../entities/tenant.entity';
import { TenantRepository } from '../repositories/tenant.repository';

/** Who asks for the twin, for the audit records of its creation. */
export interface TwinOrigin {
  actor: Actor;
  requestId: string | null;
  clientAddress: string | null;
}

/**
 * The profile a twin starts with: what the tenant's test requests need to look like its live ones
 * (name, zone, locale, currency, contact and address, settings). Not copied: logos (assets are
 * rows of their own tenant), webhook endpoint (a test endpoint is configured with a test key),
 * people, sessions, single sign-on, allowed origins (sessions are live only).
 */
const COPIED = ['name', 'legalName', 'timezone', 'locale', 'currency', 'website', 'phone', 'contactEmail', 'primaryColor', 'addressLine1', 'addressLine2', 'addressCity', 'addressState', 'addressPostalCode', 'addressCountry', 'settings'] as const;

/**
 * Test mode's tenants (docs/decisions.md, Test mode: a test twin per tenant). Each live tenant may
 * have one test twin: a tenant row of its own, linked by `liveTenantId`, so every tenant scope,
 * unique index and repository isolates test rows with no code path of its own.
 */
export class TestTwinService {
  constructor(private readonly em: EntityManager) {}

  /**
   * The test twin of the tenant `tenantId` names, made on first use in the caller's transaction:
   * the tenant itself when it is a twin; an unknown tenant is 404. The live tenant's row is locked
   * first, so two first test keys issued at once make one twin. The creation is recorded in both
   * trails: `tenant.create` opens the twin's, `tenant.test_twin_create` tells the live one.
   */
  async twinOf(tenantId: string, by: TwinOrigin): Promise<Tenant> {
    const tenant = await TenantRepository.findUnscoped(this.em, tenantId);
    if (!tenant) throw new NotFoundError('Tenant not found');
    if (tenant.liveTenantId !== null) return tenant;
    await TenantRepository.lockUnscoped(this.em, tenant);
    const existing = await TenantRepository.twinOfUnscoped(this.em, tenant.id);
    if (existing) return existing;
    const twin = new Tenant();
    for (const field of COPIED) (twin as unknown as Record<string, unknown>)[field] = structuredClone(tenant[field]);
    twin.liveTenantId = tenant.id;
    await TenantRepository.insertUnscoped(this.em, twin);
    await recordChange(this.em, { tenantId: twin.id, ...by }, 'tenant.create', 'tenant', [twin.id]);
    await recordChange(this.em, { tenantId: tenant.id, ...by }, 'tenant.test_twin_create', 'tenant', [twin.id]);
    return twin;
  }

  /** The tenant ids a live tenant's keys live under: its own and its twin's (the operator's listing). */
  async withTwin(tenantId: string): Promise<string[]> {
    const twin = await TenantRepository.twinOfUnscoped(this.em, tenantId);
    return twin ? [tenantId, twin.id] : [tenantId];
  }
}
