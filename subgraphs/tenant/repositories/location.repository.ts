import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { storedId, storedIds } from '../../../platform/ids';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { ListSlice } from '../../common/connection';
import { findSlice } from '../../common/keyset';
import type { ListWindow, SortKey } from '../../common/list-window';
import { Location } from '../entities/location.entity';
import type { LocationListArgs } from '../types/location.type';
import { searchCondition } from './search';

/** Queries of the locations table; each bound to the scope's tenant. */
export class LocationRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** Stores a new location of the scope's tenant (its tenantId is the scope's, whatever `fields` hold). */
  async create(fields: Record<string, unknown>): Promise<Location> {
    const row = this.add(fields);
    await this.em.persistAndFlush(row);
    return row;
  }

  /** A new location of the scope's tenant, added to the unit of work: the caller's transaction writes it. */
  add(fields: Record<string, unknown>): Location {
    return this.em.create(Location, { ...fields, tenantId: this.scope.tenantId } as never);
  }

  /** The location, or null for unknown ids of any shape and for other tenants' ids alike. */
  findById(id: string): Promise<Location | null> {
    const key = storedId(id);
    return key ? this.em.findOne(Location, { id: key, tenantId: this.scope.tenantId }) : Promise.resolve(null);
  }

  /** Those of the ids that are the tenant's locations. */
  findByIds(ids: string[]): Promise<Location[]> {
    const valid = storedIds(ids);
    return valid.length ? this.em.find(Location, { id: { $in: valid }, tenantId: this.scope.tenantId }, { orderBy: { name: 'asc', id: 'asc' } }) : Promise.resolve([]);
  }

  /** One window, by name (then id). */
  list(args: LocationListArgs, window: ListWindow): Promise<ListSlice<Location>> {
    const where: Record<string, unknown> = { ...(searchCondition(args.search, ['name', 'city']) ?? {}) };
    if (args.isVirtual !== undefined && args.isVirtual !== null) where.isVirtual = args.isVirtual;
    return findSlice(this.em, Location, { ...where, tenantId: this.scope.tenantId } as FilterQuery<Location>, LOCATION_KEYS, window);
  }
}

/** The order of the location list: name, id. */
export const LOCATION_KEYS: SortKey<Location>[] = [
  { field: 'name', direction: 'asc', kind: 'text', value: (row) => row.name },
  { field: 'id', direction: 'asc', kind: 'uuid', value: (row) => row.id },
];
