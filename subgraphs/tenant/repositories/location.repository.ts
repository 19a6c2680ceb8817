import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { isUuid } from '../../shared/ids';
import { Location } from '../entities/location.entity';
import type { LocationListArgs } from '../types/location.type';
import { searchCondition } from './search';

/** Queries of the locations table; the tenant filter scopes every one. */
export class LocationRepository {
  constructor(private readonly em: EntityManager) {}

  /** The location, or null for unknown ids of any shape and for other tenants' ids alike. */
  findById(id: string): Promise<Location | null> {
    return isUuid(id) ? this.em.findOne(Location, { id }) : Promise.resolve(null);
  }

  /** Those of the ids that are the tenant's locations. */
  findByIds(ids: string[]): Promise<Location[]> {
    const valid = ids.filter(isUuid);
    return valid.length ? this.em.find(Location, { id: { $in: valid } }, { orderBy: { name: 'asc', id: 'asc' } }) : Promise.resolve([]);
  }

  /** One page, by name. */
  list(args: LocationListArgs): Promise<[Location[], number]> {
    const where: Record<string, unknown> = { ...(searchCondition(args.search, ['name', 'city']) ?? {}) };
    if (args.isVirtual !== undefined && args.isVirtual !== null) where.isVirtual = args.isVirtual;
    return this.em.findAndCount(Location, where as FilterQuery<Location>, {
      orderBy: { name: 'asc', id: 'asc' },
      limit: args.perPage,
      offset: (args.page - 1) * args.perPage,
    });
  }
}
