import type { GraphQLSchema } from 'graphql';
import { buildOpenApiDocument } from '../../rest-bridge/openapi';
import { webhooksSection } from '../../rest-bridge/openapi-webhooks';
import type { RouteDefinition } from '../../rest-bridge/types';
import { auditExportOpenApi } from '../audit/audit-export.router';
import { ASSET_OPENAPI_PATHS } from './assets';
import { PLATFORM_PATHS } from './platform-paths';

type Operation = { operationId?: string; parameters?: unknown[]; summary?: string; tags?: string[]; security?: unknown[]; responses: Record<string, { description: string } & Record<string, unknown>> };
type PathItem = Record<string, Operation>;

/** The methods an OpenAPI 3.1 path item can describe, as HTTP spells them. */
const OPENAPI_METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'];

const RATE_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit-Policy', 'RateLimit', 'X-Request-Id'];
const headerRefs = (names: string[]) => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
const errorDetail = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorDetail' } } };

/**
 * The served `/openapi.json`: the route table's document, plus the public asset path, the audit
 * export and the webhooks the platform sends, with what the edge answers before a route runs
 * written where it applies: public routes' credentials and body cap, and the method guard's 405s.
 */
export function platformOpenApi(routes: RouteDefinition[], apiSchema: GraphQLSchema, publicUrl: string): Record<string, unknown> {
  const document = buildOpenApiDocument(routes, apiSchema, { serverUrl: relativeServer(publicUrl) });
  const paths = document.paths as Record<string, PathItem>;
  Object.assign(paths, ASSET_OPENAPI_PATHS);
  Object.assign(paths, auditExportOpenApi(paths['/audit/events']?.get as Parameters<typeof auditExportOpenApi>[0]));
  for (const route of routes.filter((r) => r.auth === 'public')) describePublic(route, paths[route.path][route.method.toLowerCase()]);
  for (const [path, item] of Object.entries(paths)) describeOtherMethods(path, item);
  document.webhooks = webhooksSection();
  return document;
}

/**
 * The document's server: only the path of `PUBLIC_URL` (`/` unless the gateway sits under a
 * prefix), so Swagger UI's "Try it out" and generated clients resolve it against the origin the
 * document was fetched from. An absolute `http://localhost:3000` would send a page opened at
 * `http://127.0.0.1:3000/docs` to another origin, which the page's CSP (`connect-src 'self'`)
 * blocks.
 */
export function relativeServer(publicUrl: string): string {
  return new URL(publicUrl).pathname;
}

/**
 * Public routes take no credentials: `security: []` overrides the document-wide requirement
 * (OpenAPI 3.1), and 401/403 cannot happen. Their body cap is the anonymous one, and a route with
 * an admission query (a lead webhook's key) answers its 404 and 409 before the body is read.
 */
function describePublic(route: RouteDefinition, operation: Operation): void {
  operation.security = [];
  delete operation.responses['401'];
  delete operation.responses['403'];
  const { responses } = operation;
  if (responses['413']) {
    responses['413'] = {
      ...responses['413'],
      description: "Request body too large: over `PUBLIC_BODY_LIMIT_BYTES` (32 KiB by default, decompressed), the cap of anonymous routes, which is read no further; counted against the client address's budget first",
    };
  }
  if (!route.admission) return;
  const unread = ', answered from the path before the body is read (the rest of the body is not read, and the connection is closed)';
  for (const status of ['404', '409']) if (responses[status]) responses[status] = { ...responses[status], description: responses[status].description + unread };
}

/** `putAssetsNotServed` for PUT /assets/{asset_id}: the method and the path's fixed segments, camel-cased. */
function notServedId(method: string, path: string): string {
  const words = path.split('/').filter((segment) => segment && !segment.startsWith('{')).flatMap((segment) => segment.split(/[^A-Za-z0-9]+/));
  return method.toLowerCase() + words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('') + 'NotServed';
}

/**
 * The method guard's 405 (method-guard.ts) on a documented path of the platform's own
 * (platform-paths.ts, the table the guard reads): for each method the path does not serve, an
 * operation that answers only that 405, with the `Allow` the guard sends, or the 429 of the
 * client address's budget, which it charges first. Contract paths are not in the table: a method
 * the contract does not give them is the 404 of an unknown route (docs/decisions.md).
 */
function describeOtherMethods(path: string, item: PathItem): void {
  const entry = PLATFORM_PATHS.find((candidate) => candidate.path.test(path.replace(/\{[^}]+\}/g, 'x')));
  if (!entry) return;
  const allow = entry.methods.join(', ');
  const tags = Object.values(item).find((operation) => operation.tags)?.tags;
  // The path's placeholders, which every operation on it must declare (OpenAPI 3.1, path templating).
  const parameters = [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  for (const method of OPENAPI_METHODS.filter((m) => !entry.methods.includes(m))) {
    item[method.toLowerCase()] = {
      operationId: notServedId(method, path),
      summary: `Not served: 405 (the path serves ${allow})`,
      ...(parameters.length ? { parameters } : {}),
      ...(tags ? { tags } : {}),
      security: [],
      responses: {
        405: {
          description: '`{"detail": "Method Not Allowed"}`, with `Allow` naming the methods the path serves',
          headers: { Allow: { description: 'The methods the path serves', schema: { type: 'string', const: allow } }, ...headerRefs(RATE_HEADERS) },
          content: errorDetail,
        },
        429: { description: "The client address's anonymous budget (`RATE_LIMIT_AUTH_FAILURES_PER_WINDOW`) is spent", headers: headerRefs([...RATE_HEADERS, 'Retry-After']), content: errorDetail },
      },
    };
  }
}
