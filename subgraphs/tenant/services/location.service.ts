import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import { NotFoundError } from '../../../schema/errors';
import { toConnection, type Connection } from '../../common/connection';
import { keyValues } from '../../common/keyset';
import { listWindow } from '../../common/list-window';
import { toLocationView } from '../directory-view';
import type { CreateLocationInput } from '../inputs/create-location.input';
import { LOCATION_KEYS, LocationRepository } from '../repositories/location.repository';
import type { LocationListArgs, LocationType } from '../types/location.type';
import { validateLocation } from './directory-rules';

/** The tenant's locations: create, read, list. */
export class LocationService {
  /** `audit`: the request's side of the audit trail, which every change writes to (docs/audit.md). */
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope, private readonly audit: RequestAudit) {}

  /** Validates and stores a new location of the tenant, with its audit record in the same transaction. */
  async create(input: CreateLocationInput): Promise<LocationType> {
    const fields = validateLocation(input);
    const location = await this.em.transactional(async (tx) => {
      const created = await new LocationRepository(tx, this.scope).create({ ...fields });
      await this.audit.change(tx, 'location.create', 'location', [created.id]);
      return created;
    });
    return toLocationView(location);
  }

  /** One location; unknown and other tenants' ids are the same 404. */
  async get(id: string): Promise<LocationType> {
    const location = await new LocationRepository(this.em, this.scope).findById(id);
    if (!location) throw new NotFoundError('Location not found');
    return toLocationView(location);
  }

  /** One window of the locations. */
  async list(args: LocationListArgs): Promise<Connection<LocationType>> {
    const slice = await new LocationRepository(this.em, this.scope).list(args, listWindow(args, LOCATION_KEYS));
    return toConnection(slice, keyValues(LOCATION_KEYS), toLocationView);
  }
}
