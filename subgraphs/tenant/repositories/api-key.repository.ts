import type { EntityManager } from '@mikro-orm/postgresql';
import type { SortDirection } from '../../common/pagination';
import { storedId } from '../../../platform/ids';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { ListSlice } from '../../common/connection';
import { findSlice } from '../../common/keyset';
import type { ListWindow, SortKey } from '../../common/list-window';
import { ApiKey } from '../entities/api-key.entity';

/** What a page of the tenant's own keys asks for. */
export interface ApiKeyPageQuery {
  includeRevoked: boolean;
  sortDirection: SortDirection;
}

/**
 * The API keys table. A tenant's staff read their own keys through a scoped instance; verifying a
 * key (before there is a tenant), issuing, revoking and listing them for the operator work across
 * tenants, so those are the `...Unscoped` static methods (docs/architecture.md, Rules of the house).
 */
export class ApiKeyRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** One window of the scope's keys, by creation date (then id), and the total. */
  page(query: ApiKeyPageQuery, window: ListWindow): Promise<ListSlice<ApiKey>> {
    const where = query.includeRevoked ? { tenantId: this.scope.tenantId } : { tenantId: this.scope.tenantId, revokedAt: null };
    return findSlice(this.em, ApiKey, where, apiKeyKeys(query.sortDirection), window);
  }

  /** The key with this lookup id, of any tenant: the edge verifies a key before it knows the tenant. */
  static findByLookupIdUnscoped(em: EntityManager, lookupId: string): Promise<ApiKey | null> {
    return em.findOne(ApiKey, { lookupId }, { filters: false });
  }

  /** The key with this id, of any tenant (the operator revokes by id), or null (ids of any other shape too). */
  static findByIdUnscoped(em: EntityManager, id: string): Promise<ApiKey | null> {
    const key = storedId(id);
    return key ? em.findOne(ApiKey, { id: key }, { filters: false }) : Promise.resolve(null);
  }

  /** Every key of the named tenants (a live tenant and its test twin), newest first (the operator's listing). */
  static listOfTenantsUnscoped(em: EntityManager, tenantIds: string[]): Promise<ApiKey[]> {
    return em.find(ApiKey, { tenantId: { $in: tenantIds } }, { filters: false, orderBy: { createdAt: 'desc', id: 'desc' } });
  }

  /** Stores a new key of the named tenant (the operator's action; the tenant was checked to exist). */
  static async createUnscoped(em: EntityManager, fields: { tenantId: string; lookupId: string; secretHash: Buffer; name: string | null; scopes: string[] | null; expiresAt: Date | null }): Promise<ApiKey> {
    const key = em.create(ApiKey, fields as never);
    await em.persistAndFlush(key);
    return key;
  }

  /**
   * Writes the key's revocation and announces it on `channel` in the caller's transaction, so
   * every server caching verified keys hears of it on commit.
   */
  static async saveRevocationUnscoped(em: EntityManager, key: ApiKey, channel: string): Promise<void> {
    await em.flush();
    await em.getConnection().execute('select pg_notify(?, ?)', [channel, key.id], 'run', em.getTransactionContext());
  }
}

/** The order of the tenant's key list: creation time, id, both one way. */
export function apiKeyKeys(direction: SortDirection): SortKey<ApiKey>[] {
  return [
    { field: 'createdAt', direction, kind: 'date', value: (row) => row.createdAt },
    { field: 'id', direction, kind: 'uuid', value: (row) => row.id },
  ];
}
