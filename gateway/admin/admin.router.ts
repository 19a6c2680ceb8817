import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { CARD_NUMBER_REASON, containsCardNumber } from '../../schema/card-number';
import { RateLimitedError, UnauthenticatedError, ValidationError, type ValidationIssue } from '../../schema/errors';
import { methodNotAllowed } from '../http/method-guard';
import { setRateLimitHeaders, type RateLimits } from '../http/rate-limit';
import type { AdminService } from './admin.service';
import type { KeyChangeOrigin, KeyLimits } from '../../subgraphs/tenant';
import { contextOf } from '../http/request-context';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Reads `{name, demoData?}`; the same 422 vocabulary as the rest of the API. */
function parseCreateTenant(body: unknown): { name: string; demoData: boolean } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError([{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: body ?? null }]);
  }
  const { name, demoData } = body as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  if (name === undefined) issues.push({ type: 'missing', loc: ['body', 'name'], msg: 'Field required', input: body });
  else if (typeof name !== 'string') issues.push({ type: 'string_type', loc: ['body', 'name'], msg: 'Input should be a valid string', input: name });
  else if (name.trim().length === 0 || name.length > 200) {
    issues.push({ type: 'value_error', loc: ['body', 'name'], msg: 'Value error, name must be 1 to 200 characters', input: name, ctx: { error: 'name must be 1 to 200 characters' } });
  } else if (containsCardNumber(name)) {
    // The card number rule of every stored text (schema/card-number.ts); the text is not echoed.
    issues.push({ type: 'value_error', loc: ['body', 'name'], msg: `Value error, ${CARD_NUMBER_REASON}`, input: null, ctx: { error: CARD_NUMBER_REASON } });
  }
  if (demoData !== undefined && typeof demoData !== 'boolean') issues.push({ type: 'bool_type', loc: ['body', 'demoData'], msg: 'Input should be a valid boolean', input: demoData });
  if (issues.length) throw new ValidationError(issues);
  return { name: (name as string).trim(), demoData: demoData === true };
}

/** The operator's request, for the audit records of what it changes. */
function operatorOrigin(res: Response): KeyChangeOrigin {
  const ctx = contextOf(res);
  return { actor: { kind: 'operator', id: null }, requestId: ctx.requestId, clientAddress: ctx.clientAddress ?? null };
}

/** Reads a new key's optional `scopes` (strings), `expiresAt` (an ISO 8601 date-time) and `livemode` (false: a test key); their values are the service's to check. */
function parseKeyLimits(body: unknown): KeyLimits {
  const { scopes, expiresAt, livemode } = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  if (scopes != null && !(Array.isArray(scopes) && scopes.every((scope) => typeof scope === 'string'))) issues.push({ type: 'list_type', loc: ['body', 'scopes'], msg: 'Input should be a valid list of strings', input: scopes });
  if (expiresAt != null && typeof expiresAt !== 'string') issues.push({ type: 'string_type', loc: ['body', 'expiresAt'], msg: 'Input should be a valid string', input: expiresAt });
  if (livemode != null && typeof livemode !== 'boolean') issues.push({ type: 'bool_type', loc: ['body', 'livemode'], msg: 'Input should be a valid boolean', input: livemode });
  if (issues.length) throw new ValidationError(issues);
  return { scopes: (scopes as string[] | null | undefined) ?? null, expiresAt: typeof expiresAt === 'string' ? new Date(expiresAt) : null, livemode: livemode === false ? false : true };
}

/**
 * Lets through `Authorization: Bearer $OPERATOR_TOKEN` only (`/admin/*`, `/metrics`). A failed
 * operator login counts against the client address's budget like a failed API key; the operator
 * itself is not limited.
 */
export function operatorOnly(operatorToken: string, limits: RateLimits) {
  const expected = digest(operatorToken);
  return async (req: Request, res: Response, next: NextFunction) => {
    const presented = /^Bearer (.+)$/.exec(req.get('authorization') ?? '')?.[1] ?? '';
    if (timingSafeEqual(digest(presented), expected)) return next();
    const decision = await limits.consumeAnonymous(req.ip ?? 'unknown');
    setRateLimitHeaders(res, decision);
    next(decision.allowed ? new UnauthenticatedError('Invalid operator token') : new RateLimitedError(decision.resetSeconds));
  };
}

/**
 * `/admin/*`, behind the operator token: the token (and, failing it, the address's budget) is
 * checked before `readBody` reads anything, so a stranger's body is never parsed, not even after
 * a 401 or 429. A known path asked with another method is a 405 naming the ones it serves.
 */
export function adminRouter(service: AdminService, operatorToken: string, limits: RateLimits, readBody: RequestHandler[]): Router {
  const router = Router();
  router.use(operatorOnly(operatorToken, limits), ...readBody);
  router.post('/tenants', async (req, res) => {
    res.locals.route = '/admin/tenants';
    const { name, demoData } = parseCreateTenant(req.body);
    res.status(201).json(await service.createTenant(name, demoData, operatorOrigin(res)));
  });
  router.get('/tenants/:tenantId/api-keys', async (req, res) => {
    res.locals.route = '/admin/tenants/{tenant_id}/api-keys';
    res.json(await service.listKeys(req.params.tenantId));
  });
  router.post('/tenants/:tenantId/api-keys', async (req, res) => {
    res.locals.route = '/admin/tenants/{tenant_id}/api-keys';
    const name = typeof req.body?.name === 'string' ? req.body.name : null;
    const limits = parseKeyLimits(req.body);
    const key = await service.issueKey(req.params.tenantId, name, limits, operatorOrigin(res)).catch((error: unknown) => {
      // The service locates its issues by field; here the fields are the body's.
      throw error instanceof ValidationError ? new ValidationError(error.issues.map((issue) => ({ ...issue, loc: ['body', ...issue.loc] }))) : error;
    });
    res.status(201).json({ id: key.id, apiKey: key.apiKey, livemode: key.livemode });
  });
  router.get('/tenants/:tenantId/audit-verification', async (req, res) => {
    res.locals.route = '/admin/tenants/{tenant_id}/audit-verification';
    res.json(await service.verifyAudit(req.params.tenantId));
  });
  router.delete('/api-keys/:keyId', async (req, res) => {
    res.locals.route = '/admin/api-keys/{key_id}';
    await service.revokeKey(req.params.keyId, operatorOrigin(res));
    res.status(204).end();
  });
  const served: [string, string[]][] = [['/tenants', ['POST']], ['/tenants/:tenantId/api-keys', ['GET', 'HEAD', 'POST']], ['/tenants/:tenantId/audit-verification', ['GET', 'HEAD']], ['/api-keys/:keyId', ['DELETE']]];
  for (const [path, methods] of served) router.all(path, (_req, res, next) => next(methodNotAllowed(res, methods)));
  return router;
}
