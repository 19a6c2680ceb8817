import type { PlatformPath } from './method-guard';

const READ = ['GET', 'HEAD'];

/** A platform path; `operator`: it exists only when OPERATOR_TOKEN is set. */
type Entry = PlatformPath & { operator?: boolean };

/**
 * The platform's own paths (not contract routes) and the methods each serves, for the 405 of any
 * other (method-guard.ts). `/admin/*` answers its own, after the operator token is checked.
 * `/graphql` serves GET and POST (Apollo refuses HEAD); `/graphql/stream` serves graphql-sse's
 * distinct connections, GET and POST (PUT reserves a single connection, which is not offered).
 */
export const PLATFORM_PATHS: Entry[] = [
  { path: /^\/(healthz|readyz|openapi\.json)$/, methods: READ },
  { path: /^\/docs(\/init\.js|\/assets\/[^/]+)?$/, methods: READ },
  { path: /^\/graphql$/, methods: ['GET', 'POST'] },
  { path: /^\/graphql\/stream$/, methods: ['GET', 'POST'] },
  { path: /^\/graphiql\/(init\.js|assets\/[^/]+)$/, methods: READ },
  { path: /^\/console(\/.*)?$/, methods: READ },
  { path: /^\/assets\/[^/]+$/, methods: READ },
  { path: /^\/auth\/(sign-in|sign-out|invitations\/accept|two-factor\/setup|two-factor\/confirm)$/, methods: ['POST'] },
  { path: /^\/auth\/session$/, methods: READ },
  // GET only: each begins or ends a single sign-on (and a HEAD would spend a state for nothing).
  { path: /^\/auth\/sso\/(start|callback)$/, methods: ['GET'] },
  { path: /^\/metrics$/, methods: READ, operator: true },
  // GET only: a HEAD would write the export's audit record for an answer nobody reads.
  { path: /^\/audit\/events\/export$/, methods: ['GET'] },
];
