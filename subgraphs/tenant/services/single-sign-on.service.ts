import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordChange } from '../../../platform/audit/request-audit';
import { TenantScope } from '../../../platform/tenant-scope';
import type { User } from '../entities/user.entity';
import { OidcLoginRepository } from '../repositories/oidc-login.repository';
import { SessionRepository } from '../repositories/session.repository';
import { TenantRepository } from '../repositories/tenant.repository';
import { UserRepository } from '../repositories/user.repository';
import type { SignInOrigin } from './sign-in.service';

/** A tenant's OpenID Connect provider, as the edge needs it to sign its people in. */
export interface SingleSignOnSettings {
  tenantId: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** A sign-in taken back at the callback: whose it is, and what the provider's answer is checked against. */
export interface PendingSingleSignOn {
  tenantId: string;
  codeVerifier: string;
  nonce: string;
}

/** How a single sign-on ended: the person, or no account of the tenant has the e-mail the provider vouched for. */
export type SingleSignOnResult = { user: User } | { refused: 'no_account' };

/** How long a sign-in begun at the provider may come back. */
const PENDING_MS = 10 * 60_000;
const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * Single sign-on's side in the tenant subgraph (docs/access.md, Single sign-on): what the edge
 * keeps between sending a person to the tenant's provider and their coming back, and who the
 * e-mail the provider vouched for is. Before there is a tenant's request, so across tenants; each
 * attempt that reaches a tenant leaves `auth.sign_in` in its trail, as password sign-in does.
 */
export class SingleSignOnService {
  constructor(private readonly em: EntityManager) {}

  /** The tenant's provider, or null when it has none (or there is no such tenant). */
  settings(tenantId: string): Promise<SingleSignOnSettings | null> {
    return TenantRepository.singleSignOnUnscoped(this.em, tenantId);
  }

  /** Keeps a sign-in just sent to the provider (only the state's hash), after clearing the tenant's expired ones. */
  async begin(tenantId: string, state: string, codeVerifier: string, nonce: string): Promise<void> {
    // The tenant's row was just read (settings): the sign-in acts for it.
    const scope = TenantScope.ofStoredRow(tenantId);
    const logins = new OidcLoginRepository(scope.guard(this.em), scope);
    await logins.pruneExpired();
    await logins.add({ stateHash: sha256(state), codeVerifier, nonce, expiresAt: new Date(Date.now() + PENDING_MS) });
  }

  /** Takes back the sign-in this state names, once: null when it is unknown, used or expired. */
  async take(state: string): Promise<PendingSingleSignOn | null> {
    const login = await this.em.transactional((tx) => OidcLoginRepository.takeUnscoped(tx, sha256(state)));
    return login && { tenantId: login.tenantId, codeVerifier: login.codeVerifier, nonce: login.nonce };
  }

  /**
   * The tenant's person with the e-mail the provider vouched for, recorded as a sign-in. An
   * invited person becomes active (their invitation taken up); a removed one, or an e-mail no
   * one of the tenant has, is refused.
   */
  async complete(tenantId: string, email: string, origin: SignInOrigin): Promise<SingleSignOnResult> {
    const scope = TenantScope.ofStoredRow(tenantId);
    return scope.guard(this.em).transactional(async (tx) => {
      const users = new UserRepository(tx, scope);
      const user = await users.findSignableByEmail(email);
      const by = { ...origin, tenantId, actor: { kind: 'user' as const, id: user?.id ?? null } };
      if (user?.status === 'invited') {
        user.status = 'active';
        await users.save();
        await new SessionRepository(tx, scope).acceptInvitationsOf(user.id);
        await recordChange(tx, by, 'user.accept_invitation', 'user', [user.id]);
      }
      await recordChange(tx, by, 'auth.sign_in', 'user', user ? [user.id] : [], user ? 'success' : 'failure');
      return user ? { user } : { refused: 'no_account' as const };
    });
  }

  /** Records a sign-in that came back refused or unverifiable (the provider said no, its answer failed a check, the e-mail was unverified). */
  async refuse(tenantId: string, origin: SignInOrigin): Promise<void> {
    await this.em.transactional((tx) => recordChange(tx, { ...origin, tenantId, actor: { kind: 'user', id: null } }, 'auth.sign_in', 'user', [], 'failure'));
  }
}
