import { createHash, timingSafeEqual } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { DomainError, ForbiddenError, NotFoundError, UnauthenticatedError, ValidationError } from '../../schema/errors';
import type { SessionLifetimes, TenantAccess } from '../../subgraphs/tenant';
import { OidcDiscovery, type OidcConfiguration, type OpenIdClient } from './oidc-discovery';
import { contextOf } from './request-context';
import { setSessionCookie } from './sessions';

/** What a single sign-on asks the provider for: an ID token, and the person's e-mail (OpenID Connect Core 1.0, 5.4). */
const SCOPE = 'openid email';
/** Where a person signed in lands. */
const LANDING = '/console/';
/**
 * The browser that began a sign-in carries its state here until it comes back (RFC 6749, 10.12:
 * the state bound to the user agent), so that nobody can hand another person a callback link of a
 * sign-in of their own and have them work in the wrong account (login CSRF). SameSite=Lax: the
 * provider's redirect back is a cross-site navigation, which a Strict cookie would miss.
 */
const BINDING_COOKIE = '__Host-hpp_sso';
const PENDING_SECONDS = 600;

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** Sets (or, with no state, clears) the cookie binding a sign-in to this browser. */
function bindingCookie(res: Response, state: string | null): void {
  res.append('Set-Cookie', stringifySetCookie({ name: BINDING_COOKIE, value: state ?? '', httpOnly: true, secure: true, sameSite: 'lax', path: '/', ...(state ? { maxAge: PENDING_SECONDS } : { expires: new Date(0) }) }));
}

/** Whether the request's browser began the sign-in of this state (constant time). */
function boundToBrowser(req: Request, state: string): boolean {
  const carried = req.headers.cookie ? parseCookie(req.headers.cookie)[BINDING_COOKIE] : undefined;
  return !!carried && timingSafeEqual(sha256(carried), sha256(state));
}

/** A query parameter sent once, as text; else the 422 of the rest of the API. */
function queryText(req: Request, name: string): string {
  const value = req.query[name];
  if (typeof value === 'string' && value.length > 0 && value.length <= 1000) return value;
  throw new ValidationError([value === undefined ? { type: 'missing', loc: ['query', name], msg: 'Field required', input: null } : { type: 'string_type', loc: ['query', name], msg: 'Input should be a valid string of at most 1000 characters', input: null }]);
}

/** What of a refused answer is logged: what went wrong, not the tokens' claims (a person's e-mail) an error may carry. */
function failureOf(error: unknown): { name: string; code?: unknown; message: string } {
  const cause = error instanceof DomainError && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? { name: cause.name, code: (cause as { code?: unknown }).code, message: cause.message } : { name: 'unknown', message: String(cause) };
}

/**
 * The e-mail the provider vouches for: the ID token's, else its UserInfo's (providers that follow
 * OpenID Connect Core 5.4 to the letter put scope claims there only). When the provider says
 * whether it verified the address, it must have.
 */
async function vouchedEmail(client: OpenIdClient, config: OidcConfiguration, tokens: Awaited<ReturnType<OpenIdClient['authorizationCodeGrant']>>): Promise<string> {
  const idToken = tokens.claims()!;
  let claims: Record<string, unknown> = { ...idToken };
  if (claims.email === undefined) claims = await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
  if (typeof claims.email !== 'string' || claims.email.length === 0) throw new ForbiddenError('The identity provider gave no e-mail address');
  if (claims.email_verified !== undefined && claims.email_verified !== true) throw new ForbiddenError('The identity provider has not verified this e-mail address');
  return claims.email;
}

/**
 * `/auth/sso/*`: single sign-on through a tenant's OpenID Connect provider (docs/access.md, Single
 * sign-on), with openid-client: the authorization code flow with PKCE (S256), a state and a nonce.
 * `start` sends the person to the provider; `callback` takes their answer back (in the browser that
 * began it, once: the state is used up), checks it, finds the tenant's person by the e-mail it vouches for and starts a session
 * as password sign-in does. Both count against the client address's budget (`anonymous`).
 */
export function oidcRouter(tenants: TenantAccess, lifetimes: SessionLifetimes, anonymous: RequestHandler, publicUrl: string, discovery: OidcDiscovery): Router {
  const router = Router();
  const redirectUri = `${publicUrl}/auth/sso/callback`;
  const origin = (res: Response) => {
    const ctx = contextOf(res);
    return { requestId: ctx.requestId, clientAddress: ctx.clientAddress ?? null };
  };

  router.get('/sso/start', anonymous, async (req, res) => {
    res.locals.route = '/auth/sso/start';
    const settings = await tenants.singleSignOnSettings(queryText(req, 'tenant'));
    // An unknown tenant and one without single sign-on answer alike.
    if (!settings) throw new NotFoundError('Single sign-on is not configured for this tenant');
    const { client, config } = await discovery.configuration(settings).catch((error: unknown) => {
      contextOf(res).log.warn({ failure: failureOf(error), tenantId: settings.tenantId }, 'single sign-on: provider discovery failed');
      throw error;
    });
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    await tenants.beginSingleSignOn(settings.tenantId, state, codeVerifier, nonce);
    const target = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: SCOPE,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    res.set('Cache-Control', 'no-store');
    bindingCookie(res, state);
    res.redirect(302, target.href);
  });

  router.get('/sso/callback', anonymous, async (req, res) => {
    res.locals.route = '/auth/sso/callback';
    res.set('Cache-Control', 'no-store');
    const state = queryText(req, 'state');
    // Neither taken nor forgotten: the browser that did begin it may still come back with it.
    if (!boundToBrowser(req, state)) throw new UnauthenticatedError('This sign-in was not begun in this browser; start it again');
    bindingCookie(res, null);
    const pending = await tenants.takeSingleSignOn(state);
    // No tenant is known yet, so no trail to record in: as a sign-in naming no tenant.
    if (!pending) throw new UnauthenticatedError('This sign-in is unknown, used or expired; start it again');
    let email: string;
    try {
      const settings = await tenants.singleSignOnSettings(pending.tenantId);
      if (!settings) throw new UnauthenticatedError('Single sign-on is no longer configured for this tenant');
      const { client, config } = await discovery.configuration(settings);
      // The answer's parameters as the provider sent them, on the redirect URI it was given.
      const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
      const tokens = await client.authorizationCodeGrant(config, new URL(`${redirectUri}${query}`), {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      email = await vouchedEmail(client, config, tokens);
    } catch (error) {
      await tenants.refuseSingleSignOn(pending.tenantId, origin(res));
      contextOf(res).log.warn({ failure: failureOf(error), tenantId: pending.tenantId }, 'single sign-on refused');
      if (error instanceof DomainError) throw error;
      throw new UnauthenticatedError('The identity provider did not sign the person in, or its answer failed a check');
    }
    const result = await tenants.completeSingleSignOn(pending.tenantId, email, origin(res));
    if ('refused' in result) throw new ForbiddenError('No account for this e-mail in this tenant');
    const session = await tenants.startSession(result.user, lifetimes);
    setSessionCookie(res, session.token, session.expiresAt);
    res.redirect(302, LANDING);
  });
  return router;
}
