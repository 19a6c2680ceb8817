import type { EntityManager } from '@mikro-orm/postgresql';
import { queryPrepared, type PreparedStatement } from '../../shared/prepared-statement';
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
  createdAt: Date;
  updatedAt: Date;
}

// Logo URLs need only the asset ids (`<publicUrl>/assets/<id>`), so the read stays one table, no join.
const COLUMNS = `id, name, legal_name as "legalName", timezone, locale, currency, website, phone,
  contact_email as "contactEmail", primary_color as "primaryColor",
  address_line1 as "addressLine1", address_line2 as "addressLine2", address_city as "addressCity",
  address_state as "addressState", address_postal_code as "addressPostalCode", address_country as "addressCountry",
  settings, logo_asset_id as "logoAssetId", receipt_logo_asset_id as "receiptLogoAssetId",
  created_at as "createdAt", updated_at as "updatedAt"`;

/** The hot read, exported so the benchmark's floor runs exactly the same statement. */
export const TENANT_BY_ID: PreparedStatement = { name: 'tenant_by_id', text: `select ${COLUMNS} from tenant.tenants where id = $1` };

/**
 * Reads of the tenants table. The tenant record is read on nearly every request, so it is one
 * prepared statement on the ORM's pool: `em.findOne` (hydration, identity map, filter resolution)
 * measured about 2x slower end to end on this path, `execute` about 20% (bench/RESULTS.md).
 * Writes still go through the entity and its unit of work.
 */
export class TenantRepository {
  constructor(private readonly em: EntityManager) {}

  /** The tenant with this id, or null. Callers pass the request's own tenant id only. */
  async findById(id: string): Promise<TenantRecord | null> {
    const [row] = await queryPrepared<TenantRecord>(this.em, TENANT_BY_ID, [id]);
    if (!row) return null;
    // MikroORM's driver returns timestamptz as text; the record carries Dates like the entity does.
    return { ...row, createdAt: new Date(row.createdAt), updatedAt: new Date(row.updatedAt) };
  }
}
