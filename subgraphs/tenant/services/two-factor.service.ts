import type { EntityManager } from '@mikro-orm/postgresql';
import { Secret, TOTP } from 'otpauth';
import { recordChange } from '../../../platform/audit/request-audit';
import { NotFoundError, valueError } from '../../../schema/errors';
import { SessionRepository } from '../repositories/session.repository';
import { UserRepository } from '../repositories/user.repository';
import type { SignInOrigin } from './sign-in.service';
import { totpMatches } from './sign-in.service';

/** What an authenticator app needs to enrol: the secret, and the same as an `otpauth://` URI (for a QR code). */
export interface TwoFactorSetup {
  secret: string;
  uri: string;
}

/**
 * A signed-in person's second factor (TOTP, RFC 6238): a new secret is offered, and kept only once
 * a code made from it is confirmed, so an enrolment left half-way changes nothing.
 */
export class TwoFactorService {
  constructor(private readonly em: EntityManager) {}

  /** A fresh secret for the person to add to their authenticator app; nothing is stored yet. */
  async setup(userId: string): Promise<TwoFactorSetup> {
    const user = await UserRepository.findByIdUnscoped(this.em, userId);
    if (!user || user.status !== 'active') throw new NotFoundError('User not found');
    const secret = new Secret({ size: 20 }).base32;
    const uri = new TOTP({ issuer: 'Healthcare Practice Platform', label: user.email, secret, algorithm: 'SHA1', digits: 6, period: 30 }).toString();
    return { secret, uri };
  }

  /** Keeps the secret once `code` proves the app has it; from then on signing in asks for a code. */
  async confirm(userId: string, secret: string, code: string, origin: SignInOrigin): Promise<void> {
    if (!/^[A-Z2-7]{32}$/.test(secret)) throw valueError(['secret'], 'not a secret this service offered', null);
    if (!totpMatches(secret, code)) throw valueError(['code'], 'the code does not match: check the time on the device', null);
    await this.em.transactional(async (em) => {
      const user = await UserRepository.findByIdUnscoped(em, userId);
      if (!user || user.status !== 'active') throw new NotFoundError('User not found');
      user.totpSecret = secret;
      await SessionRepository.saveUnscoped(em);
      await recordChange(em, { ...origin, tenantId: user.tenantId, actor: { kind: 'user', id: user.id } }, 'user.enable_two_factor', 'user', [user.id]);
    });
  }
}
