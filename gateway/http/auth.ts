import type { NextFunction, Request, Response } from 'express';
import { ForbiddenError, RateLimitedError, UnauthenticatedError, ValidationError, type ValidationIssue } from '../../schema/errors';
import { tagTenant } from '../../platform/tracing/tenant-attribute';
import type { KeyPrincipal } from '../../subgraphs/tenant';
import type { KeyCache } from './key-cache';
import { authFailures } from '../metrics/instruments';
import { setRateLimitHeaders, type RateDecision, type RateLimits } from './rate-limit';
import { contextOf } from './request-context';
import { admitSession, bearerTokenOf, sessionTokenOf } from './sessions';
import type { SessionLifetimes, TenantAccess } from '../../subgraphs/tenant';

/** What admitting people's sessions needs: the tenant subgraph's face, and how long sessions live. */
export interface SessionSupport {
  tenants: TenantAccess;
  lifetimes: SessionLifetimes;
  /** This service's own origin (PUBLIC_URL's). */
  ownOrigin: string;
}

const missingHeader = (name: string): ValidationIssue => ({ type: 'missing', loc: ['header', name], msg: 'Field required', input: null });

/**
 * Authenticates a tenant-scoped request (docs/decisions.md, Tenancy) and counts it against a budget:
 * the tenant's when the key is good, the client address's when it is not, so nobody can drain
 * a tenant's budget without its key. Errors go to the bridge's error handler. A key verified
 * moments ago and a budget slice this process holds answer at once: the usual request passes
 * without waiting for a promise (docs/decisions.md, "The usual request waits for no promise at the edge").
 */
export function authenticate(keys: KeyCache, limits: RateLimits, sessions?: SessionSupport) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const tenantId = req.get('tenant');
    const apiKey = req.get('api-key');
    // A browser of a signed-in person sends its session cookie instead of a key (docs/access.md, Sessions).
    const bearer = !apiKey && sessions ? bearerTokenOf(req) : null;
    const sessionToken = bearer ?? (!apiKey && sessions ? sessionTokenOf(req) : null);
    if (sessionToken) {
      admitSession(sessions!.tenants, sessions!.lifetimes, req, contextOf(res), sessionToken, { bearer: bearer !== null, ownOrigin: sessions!.ownOrigin }).then(
        (session) => charge(req, res, next, limits, null, session.tenantId),
        (error: unknown) => {
          authFailures.inc({ reason: 'invalid_session' });
          charge(req, res, next, limits, error as Error);
        },
      );
      return;
    }
    if (!tenantId || !apiKey) {
      authFailures.inc({ reason: 'missing_headers' });
      return charge(req, res, next, limits, new ValidationError([...(tenantId ? [] : [missingHeader('tenant')]), ...(apiKey ? [] : [missingHeader('api-key')])]));
    }
    const known = keys.cached(apiKey);
    if (known) return admit(req, res, next, limits, tenantId, known);
    keys.principal(apiKey).then((principal) => admit(req, res, next, limits, tenantId, principal)).catch(next);
  };
}

/** Checks a key's principal against the TENANT header, then charges the budget that answers for the request. */
function admit(req: Request, res: Response, next: NextFunction, limits: RateLimits, tenantId: string, principal: KeyPrincipal | null): void {
  if (!principal) {
    authFailures.inc({ reason: 'invalid_key' });
    return charge(req, res, next, limits, new UnauthenticatedError('Invalid API key'));
  }
  // Checked on every request, not only when verified: a remembered key expires on time.
  if (principal.expiresAt !== null && principal.expiresAt <= Date.now()) {
    authFailures.inc({ reason: 'expired_key' });
    return charge(req, res, next, limits, new UnauthenticatedError('API key expired'));
  }
  // A test key's requests name the live tenant (or its twin's own id, as the graph shows it) and run as the twin: its rows, budget, caches and trail (docs/api.md, Test mode).
  if (principal.liveTenantId !== tenantId && principal.tenantId !== tenantId) {
    authFailures.inc({ reason: 'wrong_tenant' });
    return charge(req, res, next, limits, new ForbiddenError('API key does not belong to this tenant'));
  }
  const ctx = contextOf(res);
  ctx.tenantId = principal.tenantId;
  ctx.keyId = principal.keyId;
  ctx.scopes = principal.scopes;
  ctx.actor = { kind: 'key', id: principal.keyId };
  tagTenant(principal.tenantId);
  charge(req, res, next, limits, null, principal.tenantId);
}

/** Counts the request against its tenant's budget, or its client address's when it is nobody's yet (no tenant), and passes on the verdict and `failure`. */
function charge(req: Request, res: Response, next: NextFunction, limits: RateLimits, failure: Error | null, tenantId?: string): void {
  const decision = tenantId ? limits.consumeTenant(tenantId) : limits.consumeAnonymous(req.ip ?? 'unknown');
  const pass = (decided: RateDecision) => {
    setRateLimitHeaders(res, decided);
    next(decided.allowed ? (failure ?? undefined) : new RateLimitedError(decided.resetSeconds));
  };
  if (decision instanceof Promise) decision.then(pass).catch(next);
  else pass(decision);
}

/** Counts a request that needs no tenant (unknown routes, public pages) against the client address's budget. */
export function limitAnonymous(limits: RateLimits) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const decision = await limits.consumeAnonymous(req.ip ?? 'unknown');
    setRateLimitHeaders(res, decision);
    next(decision.allowed ? undefined : new RateLimitedError(decision.resetSeconds));
  };
}

/**
 * Counts a request for a public document (`/openapi.json`, `/docs`, the IDE's and console's files)
 * against the client address's budget for them, before anything is served: a flood of them is a
 * 429 from the budget, never a stalled event loop.
 */
export function limitPublic(limits: RateLimits) {
  return (req: Request, res: Response, next: NextFunction): void => {
    limits
      .consumePublic(req.ip ?? 'unknown')
      .then((decision) => {
        setRateLimitHeaders(res, decision);
        next(decision.allowed ? undefined : new RateLimitedError(decision.resetSeconds));
      })
      .catch(next);
  };
}

