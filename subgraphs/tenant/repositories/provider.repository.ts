import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { storedId, storedIds } from '../../../platform/ids';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { Location } from '../entities/location.entity';
import type { ListSlice } from '../../common/connection';
import { findSlice } from '../../common/keyset';
import type { ListWindow, SortKey } from '../../common/list-window';
import { Provider } from '../entities/provider.entity';
import type { ProviderListArgs } from '../types/provider.type';
import { searchCondition } from './search';

/** Queries of the providers table, locations loaded alongside. */
export class ProviderRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** Stores a new provider of the scope's tenant working at `locations` (already read through this scope). */
  async create(fields: Record<string, unknown>, locations: Location[]): Promise<Provider> {
    const row = this.add(fields, locations);
    await this.em.persistAndFlush(row);
    return row;
  }

  /** A new provider of the scope's tenant, added to the unit of work: the caller's transaction writes it. */
  add(fields: Record<string, unknown>, locations: Location[]): Provider {
    const row = this.em.create(Provider, { ...fields, tenantId: this.scope.tenantId } as never);
    row.locations.set(locations);
    return row;
  }

  /** The provider, or null for unknown ids of any shape and for other tenants' ids alike. */
  findById(id: string): Promise<Provider | null> {
    const key = storedId(id);
    return key ? this.em.findOne(Provider, { id: key, tenantId: this.scope.tenantId }, { populate: ['locations'] }) : Promise.resolve(null);
  }

  /** Those of the ids that are the tenant's providers, locations loaded. */
  findByIds(ids: string[]): Promise<Provider[]> {
    const valid = storedIds(ids);
    return valid.length ? this.em.find(Provider, { id: { $in: valid }, tenantId: this.scope.tenantId }, { populate: ['locations'] }) : Promise.resolve([]);
  }

  /** One window, by last then first name (then id). A malformed location id matches nobody. */
  async list(args: ProviderListArgs, window: ListWindow): Promise<ListSlice<Provider>> {
    const locationId = args.locationId ? storedId(args.locationId) : null;
    if (args.locationId && !locationId) return { rows: [], totalCount: 0, hasNextPage: false, hasPreviousPage: false };
    const where: Record<string, unknown> = { ...(searchCondition(args.search, ['firstName', 'lastName', 'title', 'email']) ?? {}) };
    if (locationId) where.locations = { id: locationId };
    return findSlice(this.em, Provider, { ...where, tenantId: this.scope.tenantId } as FilterQuery<Provider>, PROVIDER_KEYS, window, { populate: ['locations'] });
  }
}

/** The order of the provider list: last name, first name, id. */
export const PROVIDER_KEYS: SortKey<Provider>[] = [
  { field: 'lastName', direction: 'asc', kind: 'text', value: (row) => row.lastName },
  { field: 'firstName', direction: 'asc', kind: 'text', value: (row) => row.firstName },
  { field: 'id', direction: 'asc', kind: 'uuid', value: (row) => row.id },
];
