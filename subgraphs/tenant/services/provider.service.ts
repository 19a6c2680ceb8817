import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import { NotFoundError } from '../../../schema/errors';
import { toConnection, type Connection } from '../../common/connection';
import { keyValues } from '../../common/keyset';
import { listWindow } from '../../common/list-window';
import { toLocationView, toProviderView } from '../directory-view';
import type { CreateProviderInput } from '../inputs/create-provider.input';
import { LocationRepository } from '../repositories/location.repository';
import { PROVIDER_KEYS, ProviderRepository } from '../repositories/provider.repository';
import type { LocationType } from '../types/location.type';
import type { ProviderListArgs, ProviderType } from '../types/provider.type';
import { validateProvider } from './directory-rules';

/** The tenant's providers: create, read, list, and where they work. */
export class ProviderService {
  /** `audit`: the request's side of the audit trail, which every change writes to (docs/audit.md). */
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope, private readonly audit: RequestAudit) {}

  /** Validates and stores a new provider, with its audit record in the same transaction; every location id must be one of the tenant's locations. */
  async create(input: CreateProviderInput): Promise<ProviderType> {
    const locations = await new LocationRepository(this.em, this.scope).findByIds([...new Set(input.locationIds ?? [])]);
    const fields = validateProvider(input, new Set(locations.map((l) => l.id)));
    const provider = await this.em.transactional(async (tx) => {
      const created = await new ProviderRepository(tx, this.scope).create({ ...fields }, locations);
      await this.audit.change(tx, 'provider.create', 'provider', [created.id]);
      return created;
    });
    return toProviderView(provider);
  }

  /** One provider; unknown and other tenants' ids are the same 404. */
  async get(id: string): Promise<ProviderType> {
    const provider = await new ProviderRepository(this.em, this.scope).findById(id);
    if (!provider) throw new NotFoundError('Provider not found');
    return toProviderView(provider);
  }

  /** One window of the providers. */
  async list(args: ProviderListArgs): Promise<Connection<ProviderType>> {
    const slice = await new ProviderRepository(this.em, this.scope).list(args, listWindow(args, PROVIDER_KEYS));
    return toConnection(slice, keyValues(PROVIDER_KEYS), toProviderView);
  }

  /** The locations behind a provider's `locationIds`, by name. */
  async locationsOf(provider: ProviderType): Promise<LocationType[]> {
    return (await new LocationRepository(this.em, this.scope).findByIds(provider.locationIds)).map(toLocationView);
  }
}
