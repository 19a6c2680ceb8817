import type { EntityManager } from '@mikro-orm/postgresql';

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
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = `id, name, legal_name as "legalName", timezone, locale, currency, website, phone,
  contact_email as "contactEmail", primary_color as "primaryColor", created_at as "createdAt", updated_at as "updatedAt"`;

/**
 * Reads of the tenants table. The tenant record is read on nearly every request, so it is one
 * parameterised statement on the ORM's connection: `em.findOne` (hydration, identity map, filter
 * resolution) measured about 2x slower end to end on this path (bench/RESULTS.md). Writes still go
 * through the entity and its unit of work.
 */
export class TenantRepository {
  constructor(private readonly em: EntityManager) {}

  /** The tenant with this id, or null. Callers pass the request's own tenant id only. */
  async findById(id: string): Promise<TenantRecord | null> {
    const row = await this.em.getConnection().execute<TenantRecord>(`select ${COLUMNS} from tenant.tenants where id = ?`, [id], 'get');
    if (!row) return null;
    // MikroORM's driver returns timestamptz as text; the record carries Dates like the entity does.
    return { ...row, createdAt: new Date(row.createdAt), updatedAt: new Date(row.updatedAt) };
  }
}
