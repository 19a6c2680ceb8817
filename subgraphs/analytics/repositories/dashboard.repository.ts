import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SortDirection } from '../../shared/pagination';
import { Dashboard } from '../entities/dashboard.entity';
import { DashboardSortField } from '../types/enums';
import { escapeLike } from '../../shared/field-rules';

/** Entity property behind each `sort_by` value. */
const SORT_COLUMNS: Record<DashboardSortField, 'name' | 'createdAt' | 'updatedAt'> = {
  [DashboardSortField.name]: 'name',
  [DashboardSortField.createdDate]: 'createdAt',
  [DashboardSortField.updatedDate]: 'updatedAt',
};

/** What a dashboard list asks for. */
export interface DashboardQuery {
  page: number;
  perPage: number;
  sortBy: DashboardSortField;
  sortDirection: SortDirection;
  locationId?: string | null;
  name?: string | null;
}

/** Queries of the dashboards table; the `tenant` filter scopes every one of them. */
export class DashboardRepository {
  constructor(private readonly em: EntityManager) {}

  /** The tenant's dashboard with this id (callers pass UUIDs only), or null. */
  findById(id: string): Promise<Dashboard | null> {
    return this.em.findOne(Dashboard, { id });
  }

  /** True when the tenant has this dashboard. */
  async exists(id: string): Promise<boolean> {
    return (await this.em.count(Dashboard, { id })) > 0;
  }

  /** One page and the total: two statements (rows, count). */
  list(query: DashboardQuery): Promise<[Dashboard[], number]> {
    const where: FilterQuery<Dashboard> = {};
    if (query.locationId != null) where.locationId = query.locationId;
    if (query.name) where.name = { $ilike: `%${escapeLike(query.name)}%` };
    return this.em.findAndCount(Dashboard, where, {
      // The id breaks ties so that pages never repeat or skip a row.
      orderBy: [{ [SORT_COLUMNS[query.sortBy]]: query.sortDirection }, { id: query.sortDirection }],
      limit: query.perPage,
      offset: (query.page - 1) * query.perPage,
    });
  }

  /** Ids of the tenant's dashboards of one location. */
  async idsOfLocation(locationId: string): Promise<string[]> {
    const rows = await this.em.find(Dashboard, { locationId }, { fields: ['id'] });
    return rows.map((d) => d.id);
  }

  /** Deletes the dashboard (its widgets go with it, by the foreign key); false when there was none. */
  async delete(id: string): Promise<boolean> {
    return (await this.em.nativeDelete(Dashboard, { id })) > 0;
  }
}
