import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { queryPrepared, type PreparedStatement } from '../../../platform/speed/prepared-statement';
import { storedId } from '../../../platform/ids';
import type { TenantScope } from '../../../platform/tenant-scope';
import { Tenant } from '../entities/tenant.entity';
import type { StoredTenantSettings } from '../tenant-settings';

/** A tenant row as reads return it (property names of the Tenant entity). */
export interface TenantRecord {
  id: string;
  name: string;
  legalName: string | null;
  timezone: string;
  locale: string;
  currency: string;
  website: string | null;
  phone: string | null;
  contactEmail: string | null;
  primaryColor: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  addressCity: string | null;
  addressState: string | null;
  addressPostalCode: string | null;
  addressCountry: string | null;
  settings: StoredTenantSettings;
  logoAssetId: string | null;
  receiptLogoAssetId: string | null;
  /** False on a test twin (docs/api.md, Test mode). */
  livemode: boolean;
  createdAt: Date;
  updatedAt: Date;
}

// Logo URLs need only the asset ids (`<publicUrl>/assets/<id>`), so the read stays one table, no join.
const COLUMNS = `id, name, legal_name as "legalName", timezone, locale, currency, website, phone,
  contact_email as "contactEmail", primary_color as "primaryColor",
  address_line1 as "addressLine1", address_line2 as "addressLine2", address_city as "addressCity",
  address_state as "addressState", address_postal_code as "addressPostalCode", address_country as "addressCountry",
  settings, logo_asset_id as "logoAssetId", receipt_logo_asset_id as "receiptLogoAssetId", live_tenant_id is null as livemode,
  created_at as "createdAt", updated_at as "updatedAt"`;

/** The tenant as patients see it (`PublicTenant`): the fields shown and the logos' asset ids, nothing else. */
export type PublicTenantRecord = Pick<TenantRecord, 'id' | 'name' | 'timezone' | 'locale' | 'currency' | 'website' | 'phone' | 'primaryColor' | 'logoAssetId' | 'receiptLogoAssetId'>;

const PUBLIC_COLUMNS = `id, name, timezone, locale, currency, website, phone, primary_color as "primaryColor",
  logo_asset_id as "logoAssetId", receipt_logo_asset_id as "receiptLogoAssetId"`;

/**
 * The public read selects only what `PublicTenant` shows: a patient-facing answer never reads the
 * contact e-mail, address or settings, and the hottest path reads, parses and shapes 10 columns
 * instead of 21 (settings' JSON and two timestamps among them). Exported so the benchmark's floor
 * runs exactly the same statement.
 */
export const PUBLIC_TENANT_BY_ID: PreparedStatement = { name: 'public_tenant_by_id', text: `select ${PUBLIC_COLUMNS} from tenant.tenants where id = $1` };

/** The whole tenant row by id, for the tenant's own reads. */
export const TENANT_BY_ID: PreparedStatement = { name: 'tenant_by_id', text: `select ${COLUMNS} from tenant.tenants where id = $1` };

/**
 * The scope's own row of the tenants table (its id is the tenant id). The tenant record is read on
 * nearly every request, so it is one prepared statement on the ORM's pool: `em.findOne`
 * (hydration, identity map, filter resolution) measured about 2x slower end to end on this path,
 * `execute` about 20% (bench/RESULTS.md). Writes go through the entity and its unit of work.
 */
export class TenantRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** The scope's tenant as patients see it, or null when it was deleted under a live key. */
  async currentPublic(): Promise<PublicTenantRecord | null> {
    const [row] = await queryPrepared<PublicTenantRecord>(this.em, PUBLIC_TENANT_BY_ID, [this.scope.tenantId]);
    return row ?? null;
  }

  /** The scope's tenant, or null when it was deleted under a live key. */
  async current(): Promise<TenantRecord | null> {
    const [row] = await queryPrepared<TenantRecord>(this.em, TENANT_BY_ID, [this.scope.tenantId]);
    if (!row) return null;
    // MikroORM's driver returns timestamptz as text; the record carries Dates like the entity does.
    return { ...row, createdAt: new Date(row.createdAt), updatedAt: new Date(row.updatedAt) };
  }

  /** The scope's tenant as an entity of this entity manager's unit of work, for a write; null when gone. */
  loadForUpdate(): Promise<Tenant | null> {
    return this.em.findOne(Tenant, { id: this.scope.tenantId });
  }

  /** Stores a new tenant (the operator's action, before there is any scope). */
  static async createUnscoped(em: EntityManager, name: string): Promise<Tenant> {
    const tenant = em.create(Tenant, { name } as never);
    await em.persistAndFlush(tenant);
    return tenant;
  }

  /** The tenant with this id, of any shape of id, or null: the operator names a tenant by id before there is a scope. */
  static findUnscoped(em: EntityManager, id: string): Promise<Tenant | null> {
    const key = storedId(id);
    return key ? em.findOne(Tenant, { id: key }, { filters: false }) : Promise.resolve(null);
  }

  /** The test twin of a live tenant, or null while it has none (docs/api.md, Test mode). */
  static twinOfUnscoped(em: EntityManager, liveTenantId: string): Promise<Tenant | null> {
    return em.findOne(Tenant, { liveTenantId }, { filters: false });
  }

  /**
   * A tenant's stored id and mode: the live tenant it is the test twin of, or null for a live one;
   * undefined when there is no such tenant, ids of any other shape too (the edge verifying a key,
   * the operator naming a tenant).
   */
  static async modeUnscoped(em: EntityManager, id: string): Promise<{ id: string; liveTenantId: string | null } | undefined> {
    const key = storedId(id);
    const tenant = key ? await em.findOne(Tenant, { id: key }, { filters: false, fields: ['liveTenantId'] }) : null;
    return tenant ? { id: tenant.id, liveTenantId: tenant.liveTenantId } : undefined;
  }

  /** Locks a tenant's row for the caller's transaction: a live tenant's first test key makes its one twin. */
  static async lockUnscoped(em: EntityManager, tenant: Tenant): Promise<void> {
    // A locking read, not `em.lock`, which (MikroORM 6.6) names the table without the subgraph's schema.
    await em.findOne(Tenant, { id: tenant.id }, { filters: false, lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  }

  /** Stores a new tenant row (already filled in) as the operator's action: a test twin. */
  static async insertUnscoped(em: EntityManager, tenant: Tenant): Promise<Tenant> {
    await em.persistAndFlush(tenant);
    return tenant;
  }

  /** Whether a tenant with this id exists (the operator names a tenant by id); false for ids of any other shape. */
  static async existsUnscoped(em: EntityManager, id: string): Promise<boolean> {
    const key = storedId(id);
    return !!key && (await em.count(Tenant, { id: key }, { filters: false })) > 0;
  }

  /** Whether any tenant lists this web origin: the edge answers a browser's preflight before it knows the tenant. */
  static async anyAllowsOriginUnscoped(em: EntityManager, origin: string): Promise<boolean> {
    return (await em.count(Tenant, { allowedOrigins: { $contains: [origin] } }, { filters: false })) > 0;
  }

  /** Whether a tenant lists this web origin; the edge asks while admitting a bearer session, before the tenant's request. */
  static async allowsOriginUnscoped(em: EntityManager, tenantId: string, origin: string): Promise<boolean> {
    return (await em.count(Tenant, { id: tenantId, allowedOrigins: { $contains: [origin] } }, { filters: false })) > 0;
  }

  /** Whether a tenant asks its people for a second factor; the edge asks while resolving a session, before the tenant's request. */
  static async twoFactorRequiredUnscoped(em: EntityManager, tenantId: string): Promise<boolean> {
    const tenant = await em.findOne(Tenant, { id: tenantId }, { filters: false, fields: ['twoFactorRequired'] });
    return tenant?.twoFactorRequired ?? false;
  }

  /** A tenant's OpenID Connect provider, or null when it has none (or there is no such tenant): the edge begins a single sign-on before there is a request of the tenant. */
  static async singleSignOnUnscoped(em: EntityManager, tenantId: string): Promise<{ tenantId: string; issuer: string; clientId: string; clientSecret: string } | null> {
    const key = storedId(tenantId);
    const tenant = key ? await em.findOne(Tenant, { id: key }, { filters: false, fields: ['oidcIssuer', 'oidcClientId', 'oidcClientSecret'] }) : null;
    if (!tenant?.oidcIssuer || !tenant.oidcClientId || !tenant.oidcClientSecret) return null;
    return { tenantId: tenant.id, issuer: tenant.oidcIssuer, clientId: tenant.oidcClientId, clientSecret: tenant.oidcClientSecret };
  }

  /** How many tenants exist, all of them (the first start seeds a demo tenant only on an empty database). */
  static countUnscoped(em: EntityManager): Promise<number> {
    return em.count(Tenant, {}, { filters: false });
  }
}
