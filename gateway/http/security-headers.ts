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
