import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SortDirection } from '../../common/pagination';
import { storedId } from '../../../platform/ids';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { ListSlice } from '../../common/connection';
import { findSlice } from '../../common/keyset';
import { byFieldThenId, type ListWindow, type SortKey } from '../../common/list-window';
import { Dashboard } from '../entities/dashboard.entity';
import { DashboardSortField } from '../types/enums';
import { escapeLike } from '../../common/field-rules';
import type { ReadConnection } from '../../../platform/replica/stale-read';

/** Entity property behind each `sort_by` value. */
const SORT_COLUMNS: Record<DashboardSortField, 'name' | 'createdAt' | 'updatedAt'> = {
  [DashboardSortField.NAME]: 'name',
  [DashboardSortField.CREATED_AT]: 'createdAt',
  [DashboardSortField.UPDATED_AT]: 'updatedAt',
};

/** What a dashboard list asks for. */
export interface DashboardQuery {
  sortBy: DashboardSortField;
  sortDirection: SortDirection;
  locationId?: string | null;
  name?: string | null;
}

/** Queries of the dashboards table; each bound to the scope's tenant. */
export class DashboardRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** A new dashboard of the scope's tenant, added to the unit of work: the caller's transaction (or `save`) writes it. */
  add(fields: Record<string, unknown>): Dashboard {
    return this.em.create(Dashboard, { ...fields, tenantId: this.scope.tenantId } as never);
  }

  /** The tenant's dashboard with this id, or null (unknown, malformed and other tenants' ids alike). */
  findById(id: string): Promise<Dashboard | null> {
    const key = storedId(id);
    return key ? this.em.findOne(Dashboard, { id: key, tenantId: this.scope.tenantId }) : Promise.resolve(null);
  }

  /** True when the tenant has this dashboard. */
  async exists(id: string): Promise<boolean> {
    const key = storedId(id);
    return !!key && (await this.em.count(Dashboard, { id: key, tenantId: this.scope.tenantId })) > 0;
  }

  /** One window and the total: two statements (rows, count), on `connection` (the replica for a list that may be stale). */
  list(query: DashboardQuery, window: ListWindow, connection: ReadConnection = 'write'): Promise<ListSlice<Dashboard>> {
    const where: FilterQuery<Dashboard> = { tenantId: this.scope.tenantId };
    if (query.locationId != null) where.locationId = query.locationId;
    if (query.name) where.name = { $ilike: `%${escapeLike(query.name)}%` };
    return findSlice(this.em, Dashboard, where, dashboardKeys(query), window, { connectionType: connection });
  }

  /** Ids of the tenant's dashboards of one location, read on `connection`. */
  async idsOfLocation(locationId: string, connection: ReadConnection = 'write'): Promise<string[]> {
    const rows = await this.em.find(Dashboard, { locationId, tenantId: this.scope.tenantId }, { fields: ['id'], connectionType: connection });
    return rows.map((d) => d.id);
  }

  /** Writes what was added or changed through this entity manager. */
  async save(): Promise<void> {
    await this.em.flush();
  }

  /** Deletes the dashboard (its widgets go with it, by the foreign key); false when there was none. */
  async delete(id: string): Promise<boolean> {
    const key = storedId(id);
    return !!key && (await this.em.nativeDelete(Dashboard, { id: key, tenantId: this.scope.tenantId })) > 0;
  }
}

/** The order of a dashboard list: the sort field, then the id (which breaks ties so that pages never repeat or skip a row). */
export function dashboardKeys(query: Pick<DashboardQuery, 'sortBy' | 'sortDirection'>): SortKey<Dashboard>[] {
  const field = SORT_COLUMNS[query.sortBy];
  return byFieldThenId<Dashboard>(field, field === 'name' ? 'text' : 'date', query.sortDirection);
}
