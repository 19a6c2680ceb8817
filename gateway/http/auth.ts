import type { NextFunction, Request, Response } from 'express';
import { ForbiddenError, RateLimitedError, UnauthenticatedError, ValidationError, type ValidationIssue } from '../../schema/errors';
import { tagTenant } from '../../subgraphs/common/tracing/tenant-attribute';
import { rootFieldCount } from '../graphql/graphql-cost';
import type { KeyCache } from './key-cache';
import { authFailures } from '../metrics/instruments';
import { setRateLimitHeaders, type RateLimits } from './rate-limit';
import { contextOf } from './request-context';

const missingHeader = (name: string): ValidationIssue => ({ type: 'missing', loc: ['header', name], msg: 'Field required', input: null });

/**
 * Authenticates a tenant-scoped request (docs/decisions.md, Tenancy) and counts it against a budget:
 * the tenant's when the key is good, the client address's when it is not, so nobody can drain
 * a tenant's budget without its key. Errors go to the bridge's error handler.
 */
export function authenticate(keys: KeyCache, limits: RateLimits) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const ctx = contextOf(res);
    const tenantId = req.get('tenant');
    const apiKey = req.get('api-key');
    let failure: Error | null = null;
    if (!tenantId || !apiKey) {
      failure = new ValidationError([...(tenantId ? [] : [missingHeader('tenant')]), ...(apiKey ? [] : [missingHeader('api-key')])]);
      authFailures.inc({ reason: 'missing_headers' });
    } else {
      const principal = await keys.principal(apiKey);
      if (!principal) {
        failure = new UnauthenticatedError('Invalid API key');
        authFailures.inc({ reason: 'invalid_key' });
      } else if (principal.tenantId !== tenantId) {
        failure = new ForbiddenError('API key does not belong to this tenant');
        authFailures.inc({ reason: 'wrong_tenant' });
      } else {
        ctx.tenantId = principal.tenantId;
        ctx.keyId = principal.keyId;
        tagTenant(principal.tenantId);
      }
    }
    const decision = failure ? await limits.consumeAnonymous(req.ip ?? 'unknown') : await limits.consumeTenant(ctx.tenantId!);
    setRateLimitHeaders(res, decision);
    if (!decision.allowed) return next(new RateLimitedError(decision.resetSeconds));
    next(failure ?? undefined);
  };
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
 * Charges a `/graphql` request the rest of its cost once its body is read: one unit per root field
 * it runs (graphql-cost.ts), `authenticate` having charged the first, so 500 aliased mutations in
 * one request cost 500 units. Over the budget it is the 429 of any request.
 */
export function chargeRootFields(limits: RateLimits, maxTokens: number) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const params = (req.method === 'GET' ? req.query : req.body) as { query?: unknown; operationName?: unknown } | undefined;
    const extra = rootFieldCount(params?.query, params?.operationName, maxTokens) - 1;
    const tenantId = contextOf(res).tenantId;
    if (extra <= 0 || !tenantId) return next();
    const decision = await limits.consumeTenant(tenantId, extra);
    setRateLimitHeaders(res, decision);
    next(decision.allowed ? undefined : new RateLimitedError(decision.resetSeconds));
  };
}
