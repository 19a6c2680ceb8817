import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import { OidcLogin } from '../entities/oidc-login.entity';

/**
 * Single sign-ons begun and not yet back (docs/access.md, Single sign-on). One begins for a named
 * tenant (a scoped instance); it comes back with only its state, so it is taken `...Unscoped`.
 */
export class OidcLoginRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** Stores a sign-in begun for the scope's tenant. */
  async add(fields: Pick<OidcLogin, 'stateHash' | 'codeVerifier' | 'nonce' | 'expiresAt'>): Promise<void> {
    this.em.create(OidcLogin, { ...fields, tenantId: this.scope.tenantId } as never);
    await this.em.flush();
  }

  /** Deletes the scope's sign-ins whose time is up, used or not: none of them can be completed any more. */
  pruneExpired(): Promise<number> {
    return this.em.nativeDelete(OidcLogin, { tenantId: this.scope.tenantId, expiresAt: { $lte: new Date() } });
  }

  /**
   * The unused, unexpired sign-in with this state hash, of any tenant, marked used in the caller's
   * transaction. Its row stays locked until that transaction ends, so two answers carrying one
   * state cannot both take it.
   */
  static async takeUnscoped(em: EntityManager, stateHash: Buffer): Promise<OidcLogin | null> {
    const login = await em.findOne(OidcLogin, { stateHash, usedAt: null, expiresAt: { $gt: new Date() } }, { filters: false, lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!login) return null;
    login.usedAt = new Date();
    await em.flush();
    return login;
  }
}
