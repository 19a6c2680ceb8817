import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

/** What helmet's middleware did to a response: headers set, in order, and headers removed. */
interface HelmetHeaders {
  set: [name: string, value: string][];
  removed: string[];
}

/**
 * Runs helmet's middleware once against a response that only records what it is told. With no
 * directive given as a function (none here: no nonces), helmet writes the same headers on every
 * response, so recording them once is helmet's own answer, not a copy of it.
 */
function recordHelmet(options: HelmetOptions): HelmetHeaders {
  if (hasDirectivePerRequest(options)) throw new Error('a CSP directive computed per request (a function) cannot be recorded once; use helmet itself');
  const headers: HelmetHeaders = { set: [], removed: [] };
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set.push([name, Array.isArray(value) ? value.join(', ') : String(value)]);
      return recorder;
    },
    removeHeader(name: string) {
      headers.removed.push(name);
    },
  };
  let called = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    called = true;
  });
  // A helmet that went asynchronous or per-request would not be recorded faithfully: refuse at start-up.
  if (!called) throw new Error('helmet did not answer synchronously; its headers cannot be recorded once');
  return headers;
}

/** Whether a CSP directive is a function (or holds one), which helmet calls per request. */
function hasDirectivePerRequest(options: HelmetOptions): boolean {
  const csp = options.contentSecurityPolicy;
  const directives = csp && typeof csp === 'object' ? Object.values(csp.directives ?? {}) : [];
  return directives.some((value) => typeof value === 'function' || (Array.isArray(value) && value.some((item) => typeof item === 'function')));
}

/**
 * What every answer carries, the API's JSON above all: the headers OWASP's REST Security Cheat
 * Sheet lists for API responses (a CSP that allows nothing and no framing, no framing in old
 * browsers either, nosniff, HSTS) and same-origin CORP. helmet's others govern documents a
 * browser renders (COOP, Origin-Agent-Cluster, DNS prefetch, IE8 downloads, Flash/PDF policy
 * files, the retired XSS auditor, the referrer of links followed): they do nothing for JSON and
 * cost every answer six more headers (docs/decisions.md, "Security headers by kind of answer").
 */
export const API_HEADERS: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  xFrameOptions: { action: 'deny' },
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  referrerPolicy: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

/**
 * What a page a browser renders carries (the docs, GraphiQL, the console): helmet's defaults, over
 * the API's. No upgrade-insecure-requests: a plain-HTTP dev server reached by a host name would lose /docs.
 */
export const PAGE_HEADERS: HelmetOptions = { contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } };

/**
 * helmet's security headers, computed once at start-up and written on every response: helmet
 * recomputes nothing per request with these options, yet its dozen middlewares in a row were a
 * measurable share of the REST hot path (bench/RESULTS.md, 2026-11-27 second session).
 */
export function securityHeaders(options: HelmetOptions) {
  const { set, removed } = recordHelmet(options);
  return (_req: Request, res: Response, next: NextFunction) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of set) res.setHeader(name, value);
    next();
  };
}
