import cors from 'cors';
import type { RequestHandler } from 'express';
import type { TenantAccess } from '../../subgraphs/tenant';

/** How long a verdict on an origin is remembered per process, and how many are. */
const REMEMBER_MS = 30_000;
const MAX_REMEMBERED = 10_000;

/**
 * CORS for pages of tenants' own web origins (docs/access.md, Browsers on other origins): an origin
 * some tenant lists may call the API with a person's bearer session (`Authorization`), never with
 * an API key (`API-KEY` is not an allowed header, so no browser sends one across origins) and never
 * with cookies (none are allowed across origins; the session cookie is SameSite=Strict besides).
 * Which tenant's session it is, and whether that tenant lists the origin, the edge checks when it
 * admits the session. Any other origin gets no CORS headers: the browser keeps the answer from it.
 */
export function crossOriginPages(tenants: TenantAccess): RequestHandler {
  const remembered = new Map<string, { allowed: boolean; until: number }>();
  const allowed = async (origin: string): Promise<boolean> => {
    const hit = remembered.get(origin);
    if (hit && hit.until > Date.now()) return hit.allowed;
    const verdict = await tenants.anyAllowsOrigin(origin.toLowerCase());
    if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
    remembered.set(origin, { allowed: verdict, until: Date.now() + REMEMBER_MS });
    return verdict;
  };
  const handler = cors({
    origin: (origin, callback) => {
      if (!origin) return callback(null, false);
      allowed(origin).then((verdict) => callback(null, verdict), (error: Error) => callback(error));
    },
    credentials: false,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: ['authorization', 'content-type', 'tenant', 'x-request-id', 'idempotency-key'],
    exposedHeaders: ['x-request-id', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit', 'ratelimit-policy'],
    maxAge: 600,
  });
  // Server-to-server calls send no Origin: they pass without a lookup.
  return (req, res, next) => (req.headers.origin ? handler(req, res, next) : next());
}
