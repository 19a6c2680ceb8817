import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import { Invitation } from '../entities/invitation.entity';
import { Session } from '../entities/session.entity';

/**
 * Sessions and invitations. A tenant's staff end a person's sessions through a scoped instance;
 * the edge resolves a cookie and a new person accepts an invitation before there is a tenant's
 * request, so those are the `...Unscoped` statics.
 */
export class SessionRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** Ends every open session of one of the scope's people at once (removal, a role change), in the caller's transaction; how many. */
  endAllOfUser(userId: string): Promise<number> {
    return this.em.nativeUpdate(Session, { userId, tenantId: this.scope.tenantId, endedAt: null }, { endedAt: new Date() });
  }

  /** A new invitation of the scope's tenant, in the unit of work. */
  addInvitation(userId: string, tokenHash: Buffer, expiresAt: Date): Invitation {
    return this.em.create(Invitation, { tenantId: this.scope.tenantId, userId, tokenHash, expiresAt } as never);
  }

  /** Marks a person's open invitations accepted (they signed in another way), in the caller's transaction. */
  acceptInvitationsOf(userId: string): Promise<number> {
    return this.em.nativeUpdate(Invitation, { userId, tenantId: this.scope.tenantId, acceptedAt: null }, { acceptedAt: new Date() });
  }

  /** The session with this token hash that has not ended, of any tenant. */
  static findOpenUnscoped(em: EntityManager, tokenHash: Buffer): Promise<Session | null> {
    return em.findOne(Session, { tokenHash, endedAt: null }, { filters: false });
  }

  /** Stores a new session of the named tenant (the person just signed in). */
  static async createUnscoped(em: EntityManager, fields: Pick<Session, 'tenantId' | 'userId' | 'tokenHash' | 'csrfHash' | 'idleExpiresAt' | 'expiresAt'>): Promise<Session> {
    const session = em.create(Session, fields as never);
    await em.persistAndFlush(session);
    return session;
  }

  /** Writes the changes made to sessions, invitations and people found unscoped (ending one, moving its idle deadline, accepting an invitation). */
  static saveUnscoped(em: EntityManager): Promise<void> {
    return em.flush();
  }

  /** The unaccepted, unexpired invitation with this token hash, of any tenant. */
  static findInvitationUnscoped(em: EntityManager, tokenHash: Buffer): Promise<Invitation | null> {
    return em.findOne(Invitation, { tokenHash, acceptedAt: null, expiresAt: { $gt: new Date() } }, { filters: false });
  }
}
