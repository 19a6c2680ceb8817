import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import { ChargeItem, SoldPackage } from '../entities/revenue-line.entity';

/** One revenue line for a bulk insert (the demo seeder). */
export interface RevenueLineRow {
  id: string;
  locationId: string;
  locationName: string;
  providerId: string | null;
  providerName: string | null;
  patientId: string | null;
  patientName: string | null;
  itemCategory: string;
  itemType: string;
  itemName: string;
  paymentMedium: string;
  grossCents: number;
  discountCents: number;
  comment: string | null;
  createdAt: Date;
  sessionCount?: number | null;
}

/** Rows per statement: 500 rows of ~18 values stays far below PostgreSQL's limits and keeps statements fast. */
const CHUNK = 500;

/** Writes of revenue lines: one through the entity, or many in bulk. */
export class RevenueRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** Stores one line of the scope's tenant through its entity (a charge item or a sold package). */
  async create<T extends ChargeItem | SoldPackage>(kind: new () => T, fields: Record<string, unknown>): Promise<T> {
    const line = this.em.create(kind as typeof ChargeItem, { ...fields, tenantId: this.scope.tenantId } as never) as T;
    await this.em.persistAndFlush(line);
    return line;
  }

  /** Inserts many lines with multi-row inserts, `CHUNK` rows per statement; net is computed. */
  async insertMany(table: 'charge_items' | 'sold_packages', rows: RevenueLineRow[]): Promise<void> {
    const withSessions = table === 'sold_packages';
    const columns = `id, tenant_id, location_id, location_name, provider_id, provider_name, patient_id, patient_name, item_category, item_type,
      item_name, payment_medium, gross_cents, discount_cents, net_cents, comment, created_at, updated_at${withSessions ? ', session_count' : ''}`;
    const placeholders = `(${new Array(withSessions ? 19 : 18).fill('?').join(', ')})`;
    for (let start = 0; start < rows.length; start += CHUNK) {
      const chunk = rows.slice(start, start + CHUNK);
      const params = chunk.flatMap((r) => [
        r.id, this.scope.tenantId, r.locationId, r.locationName, r.providerId, r.providerName, r.patientId, r.patientName, r.itemCategory, r.itemType,
        r.itemName, r.paymentMedium, r.grossCents, r.discountCents, r.grossCents - r.discountCents, r.comment, r.createdAt, r.createdAt,
        ...(withSessions ? [r.sessionCount ?? null] : []),
      ]);
      await this.em.getConnection().execute(
        `insert into billing.${table} (${columns}) values ${chunk.map(() => placeholders).join(', ')}`,
        params,
        'run',
        this.em.getTransactionContext(),
      );
    }
  }
}
