import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { storedId, storedIds } from '../../../platform/ids';
import type { TenantScope } from '../../../platform/tenant-scope';
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

  /** One page, by name. */
  list(args: LocationListArgs): Promise<[Location[], number]> {
    const where: Record<string, unknown> = { ...(searchCondition(args.search, ['name', 'city']) ?? {}) };
    if (args.isVirtual !== undefined && args.isVirtual !== null) where.isVirtual = args.isVirtual;
    return this.em.findAndCount(Location, { ...where, tenantId: this.scope.tenantId } as FilterQuery<Location>, {
      orderBy: { name: 'asc', id: 'asc' },
      limit: args.perPage,
      offset: (args.page - 1) * args.perPage,
    });
  }
}
