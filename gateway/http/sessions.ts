import type { Request, Response } from 'express';
import { parseCookie, stringifySetCookie } from 'cookie';
import { ForbiddenError, UnauthenticatedError } from '../../schema/errors';
import { grantsOfRole } from '../../schema/roles';
import type { SessionLifetimes, SessionPrincipal, TenantAccess } from '../../subgraphs/tenant';
import type { RequestContext } from '../../schema/request-context';

/**
 * The session cookie (docs/access.md, Sessions). `__Host-`: the browser sends it only to this
 * origin, set Secure with Path=/ and no Domain; HttpOnly, so no script reads it; SameSite=Strict,
 * so no other site's page sends it.
 */
export const SESSION_COOKIE = '__Host-hpp_session';
/** The header a signed-in page sends its CSRF token in, on every request that is not a GET or HEAD. */
export const CSRF_HEADER = 'x-csrf-token';

/** A person's bearer session on a request (`Authorization: Bearer <token>`), if it carries one: what pages of a tenant's own origins send. */
export function bearerTokenOf(req: Request): string | null {
  const match = /^Bearer ([A-Za-z0-9_-]{43})$/.exec(req.get('authorization') ?? '');
  return match ? match[1] : null;
}

/** How a session reached the request, and what it may do there. */
export interface SessionArrival {
  /** In `Authorization` rather than the cookie: no browser sends it on its own, so no CSRF token is asked; a page of another origin must be one the tenant lists. */
  bearer?: boolean;
  /** The `/auth` routes a session that must first enrol a second factor may still use. */
  enrolling?: boolean;
  /** This service's own origin (PUBLIC_URL's), whose pages need no listing. */
  ownOrigin?: string;
}

/** The session cookie's token on a request, if it carries one. */
export function sessionTokenOf(req: Request): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  const token = parseCookie(header)[SESSION_COOKIE];
  return token && /^[A-Za-z0-9_-]{43}$/.test(token) ? token : null;
}

/** Sets the session cookie, for the session's absolute lifetime. */
export function setSessionCookie(res: Response, token: string, expiresAt: Date): void {
  res.append('Set-Cookie', stringifySetCookie({ name: SESSION_COOKIE, value: token, httpOnly: true, secure: true, sameSite: 'strict', path: '/', expires: expiresAt }));
}

/** Tells the browser to forget the session cookie. */
export function clearSessionCookie(res: Response): void {
  res.append('Set-Cookie', stringifySetCookie({ name: SESSION_COOKIE, value: '', httpOnly: true, secure: true, sameSite: 'strict', path: '/', expires: new Date(0) }));
}

/**
 * Admits a request by its session cookie: the live session (read from the database every time, so
 * a sign-out or a removal is seen at once by every worker and host), the TENANT header if sent
 * naming the session's tenant, and for anything but GET and HEAD the session's CSRF token.
 * Returns the session, or throws the 401 or 403.
 */
export async function admitSession(tenants: TenantAccess, lifetimes: SessionLifetimes, req: Request, ctx: RequestContext, token: string, arrival: SessionArrival = {}): Promise<SessionPrincipal> {
  const session = await tenants.resolveSession(token, lifetimes);
  if (!session) throw new UnauthenticatedError('Session expired or signed out; sign in again');
  // The tenant asks for a second factor this person has not enrolled: only enrolling (and signing out) is open.
  if (session.twoFactorPending && !arrival.enrolling) throw new ForbiddenError('Two-factor enrolment required: POST /auth/two-factor/setup, then /auth/two-factor/confirm');
  const tenant = req.get('tenant');
  if (tenant && tenant !== session.tenantId) throw new ForbiddenError('The session does not belong to this tenant');
  const origin = req.get('origin');
  if (arrival.bearer && origin && origin !== arrival.ownOrigin && !(await tenants.allowsOrigin(session.tenantId, origin))) {
    throw new ForbiddenError('This origin is not one the tenant lets call the API');
  }
  if (!arrival.bearer && req.method !== 'GET' && req.method !== 'HEAD') {
    const presented = req.get(CSRF_HEADER);
    if (!presented || !session.csrfMatches(presented)) throw new ForbiddenError('CSRF token missing or invalid');
  }
  ctx.tenantId = session.tenantId;
  ctx.actor = { kind: 'user', id: session.userId };
  ctx.scopes = grantsOfRole(session.role);
  return session;
}
