import { Router, type RequestHandler } from 'express';
import { RateLimitedError, UnauthenticatedError, ValidationError, type ValidationIssue } from '../../schema/errors';
import { ROLES, isRole } from '../../schema/roles';
import { csrfTokenOf, type SessionLifetimes, type TenantAccess } from '../../subgraphs/tenant';
import type { RateLimits } from './rate-limit';
import { contextOf } from './request-context';
import { admitSession, bearerTokenOf, clearSessionCookie, sessionTokenOf, setSessionCookie } from './sessions';

const bearer = (req: Parameters<RequestHandler>[0]) => bearerTokenOf(req) !== null;

/** Reads the named string fields of a JSON body (`optional` ones may be absent or null); the same 422 vocabulary as the rest of the API. */
function stringFields<R extends string, O extends string>(body: unknown, required: readonly R[], optional: readonly O[] = []): Record<R, string> & Partial<Record<O, string>> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError([{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: body ?? null }]);
  }
  const fields = body as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  for (const name of required) {
    if (fields[name] === undefined || fields[name] === null) issues.push({ type: 'missing', loc: ['body', name], msg: 'Field required', input: null });
    else if (typeof fields[name] !== 'string' || (fields[name] as string).length > 1000) issues.push({ type: 'string_type', loc: ['body', name], msg: 'Input should be a valid string of at most 1000 characters', input: null });
  }
  for (const name of optional) {
    if (fields[name] != null && typeof fields[name] !== 'string') issues.push({ type: 'string_type', loc: ['body', name], msg: 'Input should be a valid string', input: null });
  }
  if (issues.length) throw new ValidationError(issues);
  return fields as Record<R, string> & Partial<Record<O, string>>;
}

/**
 * `/auth/*`: people signing in and out of browser sessions (docs/access.md, Sessions). Every
 * request here first counts against the client address's budget (`anonymous`); failed sign-ins
 * also against the account's and the address's own budgets, so that passwords cannot be guessed
 * at speed. Bodies are read only after the address's budget admitted the request.
 */
export function authRouter(tenants: TenantAccess, limits: RateLimits, lifetimes: SessionLifetimes, anonymous: RequestHandler, readBody: RequestHandler[]): Router {
  const router = Router();
  const signedIn = (req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1]) => {
    const token = bearerTokenOf(req) ?? sessionTokenOf(req);
    if (!token) throw new UnauthenticatedError('Not signed in');
    return admitSession(tenants, lifetimes, req, contextOf(res), token, { enrolling: true, bearer: bearer(req) });
  };
  const origin = (res: Parameters<RequestHandler>[1]) => {
    const ctx = contextOf(res);
    return { requestId: ctx.requestId, clientAddress: ctx.clientAddress ?? null };
  };

  router.post('/sign-in', anonymous, ...readBody, async (req, res) => {
    res.locals.route = '/auth/sign-in';
    const { tenantId, email, password, code } = stringFields(req.body, ['tenantId', 'email', 'password'], ['code']);
    // A page of a tenant's own origin asks for the token itself (`"bearer": true`) and sends it as `Authorization: Bearer`.
    const asBearer = (req.body as { bearer?: unknown }).bearer === true;
    const account = `${tenantId}\0${email.trim().toLowerCase()}`;
    const address = req.ip ?? 'unknown';
    const wait = await limits.signInWait(account, address);
    if (wait > 0) throw new RateLimitedError(wait, 'Too many failed sign-ins; try again later');
    const result = await tenants.signIn(tenantId, email.trim(), password, code ?? null, origin(res));
    if ('refused' in result) {
      if (result.refused === 'code_required') throw new UnauthenticatedError('A two-factor code is required: send it as "code"');
      await limits.signInFailed(account, address);
      throw new UnauthenticatedError('Invalid e-mail or password');
    }
    const session = await tenants.startSession(result.user, lifetimes);
    const answer = { tenantId: result.user.tenantId, user: { id: result.user.id, role: result.user.role }, expiresAt: session.expiresAt.toISOString() };
    if (asBearer) return void res.json({ ...answer, token: session.token });
    setSessionCookie(res, session.token, session.expiresAt);
    res.json({ ...answer, csrfToken: session.csrfToken });
  });

  router.get('/session', anonymous, async (req, res) => {
    res.locals.route = '/auth/session';
    const token = bearerTokenOf(req) ?? sessionTokenOf(req);
    if (!token) throw new UnauthenticatedError('Not signed in');
    const session = await admitSession(tenants, lifetimes, req, contextOf(res), token, { enrolling: true, bearer: bearer(req) });
    const scopes = isRole(session.role) ? ROLES[session.role] : [];
    res.json({ tenantId: session.tenantId, user: { id: session.userId, role: session.role }, scopes, twoFactorPending: session.twoFactorPending, csrfToken: csrfTokenOf(token), expiresAt: session.expiresAt.toISOString() });
  });

  router.post('/sign-out', anonymous, async (req, res) => {
    res.locals.route = '/auth/sign-out';
    const token = bearerTokenOf(req) ?? sessionTokenOf(req);
    if (token) {
      // The CSRF token too: another site's page must not sign a person out.
      await admitSession(tenants, lifetimes, req, contextOf(res), token, { enrolling: true, bearer: bearer(req) });
      await tenants.endSession(token, lifetimes, origin(res));
    }
    clearSessionCookie(res);
    res.status(204).end();
  });

  // A second factor (TOTP): a fresh secret offered, then kept once a code from it is confirmed.
  router.post('/two-factor/setup', anonymous, async (req, res) => {
    res.locals.route = '/auth/two-factor/setup';
    const session = await signedIn(req, res);
    res.json(await tenants.twoFactorSetup(session.userId));
  });

  router.post('/two-factor/confirm', anonymous, ...readBody, async (req, res) => {
    res.locals.route = '/auth/two-factor/confirm';
    const session = await signedIn(req, res);
    const { secret, code } = stringFields(req.body, ['secret', 'code']);
    await tenants.twoFactorConfirm(session.userId, secret, code, origin(res)).catch((error: unknown) => {
      throw error instanceof ValidationError ? new ValidationError(error.issues.map((issue) => ({ ...issue, loc: ['body', ...issue.loc] }))) : error;
    });
    res.status(204).end();
  });

  router.post('/invitations/accept', anonymous, ...readBody, async (req, res) => {
    res.locals.route = '/auth/invitations/accept';
    const { token, password } = stringFields(req.body, ['token', 'password']);
    const accepted = await tenants.acceptInvitation(token, password, origin(res)).catch((error: unknown) => {
      // The service locates its issues by field; here the fields are the body's.
      throw error instanceof ValidationError ? new ValidationError(error.issues.map((issue) => ({ ...issue, loc: ['body', ...issue.loc] }))) : error;
    });
    res.json(accepted);
  });
  return router;
}
