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

/** Writes of revenue lines through their entities: one, or many in bulk. */
export class RevenueRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** Stores one line of the scope's tenant through its entity (a charge item or a sold package). */
  async create<T extends ChargeItem | SoldPackage>(kind: new () => T, fields: Record<string, unknown>): Promise<T> {
    const line = this.em.create(kind as typeof ChargeItem, { ...fields, tenantId: this.scope.tenantId } as never) as T;
    await this.em.persistAndFlush(line);
    return line;
  }

  /** Inserts many lines of the scope's tenant with multi-row inserts (`em.insertMany`), `CHUNK` rows per statement; net is computed. */
  async insertMany(kind: typeof ChargeItem | typeof SoldPackage, rows: RevenueLineRow[]): Promise<void> {
    for (let start = 0; start < rows.length; start += CHUNK) {
      const chunk = rows.slice(start, start + CHUNK).map(({ sessionCount, ...r }) => ({
        ...r,
        tenantId: this.scope.tenantId,
        netCents: r.grossCents - r.discountCents,
        updatedAt: r.createdAt,
        ...(kind === SoldPackage ? { sessionCount: sessionCount ?? null } : {}),
      }));
      await this.em.insertMany(kind as typeof ChargeItem, chunk);
    }
  }
}
