import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { TOTP } from 'otpauth';
import { recordChange } from '../../../platform/audit/request-audit';
import type { AuditOrigin } from '../../../platform/audit/audit-entry';
import { NotFoundError, valueError } from '../../../schema/errors';
import type { User } from '../entities/user.entity';
import { SessionRepository } from '../repositories/session.repository';
import { TenantRepository } from '../repositories/tenant.repository';
import { UserRepository } from '../repositories/user.repository';
import { hashPassword, passwordMatches, passwordProblem } from './password';

/** Where a sign-in comes from, for its audit record. */
export type SignInOrigin = Omit<AuditOrigin, 'tenantId' | 'actor'>;

/** How a sign-in ended: the person, or why not (each failure is told to the client as one "invalid credentials", but for a missing second factor). */
export type SignInResult = { user: User } | { refused: 'invalid' | 'code_required' };

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** The time step a six-digit code is the secret's for, now or one step either side (RFC 6238, 30 s steps, clock drift); null when it is none. */
export function totpStep(secret: string, code: string): number | null {
  const delta = new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).validate({ token: code, window: 1 });
  return delta === null ? null : Math.floor(Date.now() / 30_000) + delta;
}

/** Whether a six-digit code is the secret's now (or a step either side). */
export function totpMatches(secret: string, code: string): boolean {
  return totpStep(secret, code) !== null;
}

/** Signing in and accepting invitations: before there is a tenant's request, so across tenants; each attempt leaves an audit record in its tenant's trail. */
export class SignInService {
  constructor(private readonly em: EntityManager) {}

  /** Checks an e-mail and password (and the TOTP code of a person enrolled) in a tenant; records the attempt. */
  async signIn(tenantId: string, email: string, password: string, code: string | null, origin: SignInOrigin): Promise<SignInResult> {
    const user = await UserRepository.findActiveByEmailUnscoped(this.em, tenantId, email);
    const matches = await passwordMatches(user?.passwordHash ?? null, password);
    let result: SignInResult;
    if (!user || !matches) result = { refused: 'invalid' };
    else if (user.totpSecret && !code) result = { refused: 'code_required' };
    else if (user.totpSecret && !(await this.useCode(user, code!))) result = { refused: 'invalid' };
    else result = { user };
    // A tenant that does not exist has no trail to extend.
    if (user || (await TenantRepository.existsUnscoped(this.em, tenantId))) {
      await this.em.transactional((em) =>
        recordChange(em, { ...origin, tenantId: user?.tenantId ?? tenantId, actor: { kind: 'user', id: user?.id ?? null } }, 'auth.sign_in', 'user', user ? [user.id] : [], 'user' in result ? 'success' : 'failure'),
      );
    }
    return result;
  }

  /** Whether the code is the person's for a step later than the last one they signed in with, which it then becomes: a code overheard or replayed is refused. */
  private async useCode(user: User, code: string): Promise<boolean> {
    const step = totpStep(user.totpSecret!, code);
    // One statement decides: two sign-ins racing with the same code cannot both take its step.
    return step !== null && UserRepository.takeTotpStepUnscoped(this.em, user.id, step);
  }

  /** Sets the password of an invited person and makes them active; the invitation is used up. An unknown or expired token is 404. */
  async acceptInvitation(token: string, password: string, origin: SignInOrigin): Promise<User> {
    const problem = passwordProblem(password);
    if (problem) throw valueError(['password'], problem, null);
    const passwordHash = await hashPassword(password);
    return this.em.transactional(async (em) => {
      const invitation = await SessionRepository.findInvitationUnscoped(em, sha256(token));
      const user = invitation && (await UserRepository.findByIdUnscoped(em, invitation.userId));
      if (!invitation || !user || user.status !== 'invited') throw new NotFoundError('Invitation not found or expired');
      invitation.acceptedAt = new Date();
      user.passwordHash = passwordHash;
      user.status = 'active';
      await SessionRepository.saveUnscoped(em);
      await recordChange(em, { ...origin, tenantId: user.tenantId, actor: { kind: 'user', id: user.id } }, 'user.accept_invitation', 'user', [user.id]);
      return user;
    });
  }
}
