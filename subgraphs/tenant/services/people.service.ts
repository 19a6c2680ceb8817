import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { Actor } from '../../../schema/actor';
import { ConflictError, ForbiddenError, NotFoundError, valueError } from '../../../schema/errors';
import { isRole, type Role } from '../../../schema/roles';
import { containsCardNumber, CARD_NUMBER_REASON } from '../../../schema/card-number';
import type { User } from '../entities/user.entity';
import { ApiKeyRepository } from '../repositories/api-key.repository';
import { SessionRepository } from '../repositories/session.repository';
import { UserRepository } from '../repositories/user.repository';
import type { ListSlice } from '../../common/connection';
import type { ListWindow } from '../../common/list-window';
import type { Logger } from 'pino';
import type { MailTransport } from '../../common/mail/mail-transport';
import { invitationMail } from './invitation-mail';
import { TenantService } from './tenant.service';

/** How long an invitation may be accepted. */
const INVITATION_DAYS = 7;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;
const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** A person invited: the invitation's token is shown once, to be sent to them. */
export interface Invited {
  user: User;
  invitationToken: string;
  expiresAt: Date;
  /** Whether the invitation e-mail went out (SMTP, or an .eml file without it); when not, the admin hands the token on. */
  mailed: boolean;
}

/** Where invitations are e-mailed from: the transport, and the public URL the accept link starts with. */
export interface InvitationMailer {
  mail: MailTransport | null;
  publicUrl: string;
  log: Pick<Logger, 'warn'>;
}

/**
 * A tenant's people (docs/access.md, People and roles): invited by e-mail with a role, given
 * another role, removed. Only an owner (or the operator, or the tenant's full key, which the operator issued for
 * its owner) makes, unmakes or removes owners; the last owner stays. Every change is audited in
 * its transaction, and a removal or role change ends the person's sessions in the same one.
 */
export class PeopleService {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope, private readonly audit: RequestAudit, private readonly actor: Actor | null, private readonly mailer: InvitationMailer | null = null) {}

  /** Invites a person by e-mail with a role. */
  async invite(email: string, name: string | null, role: string): Promise<Invited> {
    const address = email.trim();
    if (!EMAIL.test(address)) throw valueError(['input', 'email'], 'not a valid e-mail address', email);
    if (name !== null && (name.length > 200 || containsCardNumber(name))) throw valueError(['input', 'name'], name.length > 200 ? 'at most 200 characters' : CARD_NUMBER_REASON, null);
    const wanted = this.roleOf(role, ['input', 'role']);
    if (wanted === 'owner') await this.mustBeOwner('invite an owner');
    const users = new UserRepository(this.em, this.scope);
    if (await users.emailTaken(address)) throw new ConflictError('Someone with this e-mail is already a member or invited');
    const invitationToken = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + INVITATION_DAYS * 86_400_000);
    const user = await this.em.transactional(async (tx) => {
      const users = new UserRepository(tx, this.scope);
      const created = users.add({ email: address, name, role: wanted });
      // The person first: the invitation's foreign key names them, and the ORM knows no relation to order the inserts by.
      await users.save();
      new SessionRepository(tx, this.scope).addInvitation(created.id, sha256(invitationToken), expiresAt);
      await users.save();
      await this.audit.change(tx, 'user.invite', 'user', [created.id]);
      return created;
    });
    return { user, invitationToken, expiresAt, mailed: await this.mailInvitation(user, invitationToken, expiresAt) };
  }

  /** E-mails the invitation once it is committed; a failure is logged (never the address) and leaves the token to the admin. */
  private async mailInvitation(user: User, token: string, expiresAt: Date): Promise<boolean> {
    if (!this.mailer?.mail) return false;
    try {
      const tenant = await new TenantService(this.em).load(this.scope);
      const acceptUrl = `${this.mailer.publicUrl}/console/#/accept-invitation?token=${token}`;
      await this.mailer.mail.send(invitationMail(user.email, tenant.name, user.role, acceptUrl, expiresAt), user.id);
      return true;
    } catch (error) {
      this.mailer.log.warn({ err: { name: (error as Error)?.name, code: (error as { code?: unknown })?.code }, userId: user.id }, 'invitation e-mail not sent; the admin has the token');
      return false;
    }
  }

  /** Gives a person another role; their sessions end, so the new role applies at once. */
  async changeRole(userId: string, role: string): Promise<User> {
    const wanted = this.roleOf(role, ['role']);
    return this.em.transactional(async (tx) => {
      const users = new UserRepository(tx, this.scope);
      const user = await users.findCurrent(userId);
      if (!user) throw new NotFoundError('User not found');
      if (wanted === 'owner' || user.role === 'owner') await this.mustBeOwner('make or unmake an owner');
      if (user.role === 'owner' && wanted !== 'owner' && (await users.countOwners()) <= 1) throw new ConflictError('The last owner cannot be given another role');
      user.role = wanted;
      await users.save();
      await new SessionRepository(tx, this.scope).endAllOfUser(user.id);
      await this.audit.change(tx, 'user.change_role', 'user', [user.id]);
      return user;
    });
  }

  /** Removes a person: they can no longer sign in, and their sessions end at once. */
  async remove(userId: string): Promise<User> {
    return this.em.transactional(async (tx) => {
      const users = new UserRepository(tx, this.scope);
      const user = await users.findCurrent(userId);
      if (!user) throw new NotFoundError('User not found');
      if (user.role === 'owner') {
        await this.mustBeOwner('remove an owner');
        if ((await users.countOwners()) <= 1) throw new ConflictError('The last owner cannot be removed');
      }
      user.status = 'removed';
      user.removedAt = new Date();
      await users.save();
      await new SessionRepository(tx, this.scope).endAllOfUser(user.id);
      await this.audit.change(tx, 'user.remove', 'user', [user.id]);
      return user;
    });
  }

  /** One page of the tenant's people (not removed). */
  list(window: ListWindow): Promise<ListSlice<User>> {
    return new UserRepository(this.em, this.scope).page(window);
  }

  private roleOf(role: string, loc: string[]): Role {
    if (!isRole(role)) throw valueError(loc, 'unknown role (owner, admin, analyst, billing, clinician)', role);
    return role;
  }

  /** Refuses (403) unless the caller is an owner, or the tenant's full key. */
  private async mustBeOwner(what: string): Promise<void> {
    // The operator (CLI, /admin) stands above the tenant's owners.
    if (this.actor?.kind === 'operator') return;
    if (this.actor?.kind === 'user' && this.actor.id) {
      const caller = await new UserRepository(this.em, this.scope).findCurrent(this.actor.id);
      if (caller?.role === 'owner') return;
    } else if (this.actor?.kind === 'key' && this.actor.id) {
      const key = await ApiKeyRepository.findByIdUnscoped(this.em, this.actor.id);
      if (key && key.tenantId === this.scope.tenantId && key.scopes === null) return;
    }
    throw new ForbiddenError(`Only an owner can ${what}`);
  }
}
