import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordChange } from '../../../platform/audit/request-audit';
import type { AuditOrigin } from '../../../platform/audit/audit-entry';
import type { User } from '../entities/user.entity';
import { SessionRepository } from '../repositories/session.repository';
import { UserRepository } from '../repositories/user.repository';
import { TenantRepository } from '../repositories/tenant.repository';

/** How long a session lives: its idle timeout (automatic logoff) and its absolute lifetime. */
export interface SessionLifetimes {
  idleMs: number;
  maxMs: number;
}

/** A session just started: the cookie's token and the CSRF token are shown once, only their hashes are kept. */
export interface StartedSession {
  token: string;
  csrfToken: string;
  expiresAt: Date;
}

/** Who a live session is: what the edge needs to admit a request. */
export interface SessionPrincipal {
  sessionId: string;
  tenantId: string;
  userId: string;
  role: string;
  /** When it ends at the latest (its absolute lifetime). */
  expiresAt: Date;
  /** The tenant asks for a second factor and this person has none yet: the session may only enrol one. */
  twoFactorPending: boolean;
  /** Whether `presented` is this session's CSRF token (constant time). */
  csrfMatches(presented: string): boolean;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();
/** The idle deadline is written at most this often (a quarter of the idle timeout, at most a minute): a session's every request would otherwise be a write. */
const TOUCH_EVERY_MS = 60_000;

/**
 * A session's CSRF token, derived from its cookie's token: the page gets it again after a reload
 * (GET /auth/session, which the cookie reaches), and a site that cannot read the cookie cannot
 * make it. Only its hash is stored.
 */
export function csrfTokenOf(sessionToken: string): string {
  return createHash('sha256').update(`csrf\0${sessionToken}`).digest('base64url');
}

/** Starts, resolves and ends people's sessions (docs/access.md, Sessions). Works across tenants: its caller is the edge. */
export class SessionService {
  constructor(private readonly em: EntityManager, private readonly lifetimes: SessionLifetimes) {}

  /** A new session for a person who just signed in, with fresh tokens: an old cookie (a fixation attempt) never becomes one. */
  async start(user: User): Promise<StartedSession> {
    const token = randomBytes(32).toString('base64url');
    const csrfToken = csrfTokenOf(token);
    const now = Date.now();
    const expiresAt = new Date(now + this.lifetimes.maxMs);
    await SessionRepository.createUnscoped(this.em, { tenantId: user.tenantId, userId: user.id, tokenHash: sha256(token), csrfHash: sha256(csrfToken), idleExpiresAt: new Date(Math.min(now + this.lifetimes.idleMs, expiresAt.getTime())), expiresAt });
    return { token, csrfToken, expiresAt };
  }

  /** The live session a cookie's token names, its idle deadline moved on; null for an unknown, ended, idle, expired one or a removed person's. */
  async resolve(token: string): Promise<SessionPrincipal | null> {
    const session = await SessionRepository.findOpenUnscoped(this.em, sha256(token));
    if (!session) return null;
    const now = Date.now();
    const user = await UserRepository.findByIdUnscoped(this.em, session.userId);
    if (!user || user.status !== 'active' || session.idleExpiresAt.getTime() <= now || session.expiresAt.getTime() <= now) {
      session.endedAt ??= new Date();
      await SessionRepository.saveUnscoped(this.em);
      return null;
    }
    const idle = Math.min(now + this.lifetimes.idleMs, session.expiresAt.getTime());
    if (idle - session.idleExpiresAt.getTime() >= Math.min(TOUCH_EVERY_MS, this.lifetimes.idleMs / 4)) {
      session.idleExpiresAt = new Date(idle);
      await SessionRepository.saveUnscoped(this.em);
    }
    const csrfHash = Buffer.from(session.csrfHash);
    const twoFactorPending = user.totpSecret === null && (await TenantRepository.twoFactorRequiredUnscoped(this.em, session.tenantId));
    return {
      sessionId: session.id,
      tenantId: session.tenantId,
      userId: user.id,
      role: user.role,
      expiresAt: session.expiresAt,
      twoFactorPending,
      csrfMatches: (presented) => timingSafeEqual(sha256(presented), csrfHash),
    };
  }

  /** Ends the session a token names (signing out), with its audit record; nothing when there is none. */
  async end(token: string, origin: Omit<AuditOrigin, 'tenantId' | 'actor'>): Promise<void> {
    await this.em.transactional(async (em) => {
      const session = await SessionRepository.findOpenUnscoped(em, sha256(token));
      if (!session) return;
      session.endedAt = new Date();
      await SessionRepository.saveUnscoped(em);
      await recordChange(em, { ...origin, tenantId: session.tenantId, actor: { kind: 'user', id: session.userId } }, 'session.end', 'session', [session.id]);
    });
  }
}
