import type { GraphQLSchema } from 'graphql';
import { buildOpenApiDocument } from '../../rest-bridge/openapi';
import { webhooksSection } from '../../rest-bridge/openapi-webhooks';
import type { RouteDefinition } from '../../rest-bridge/types';
import { ASSET_OPENAPI_PATHS } from './assets';

/** The served `/openapi.json`: the route table's document, plus the public asset path and the webhooks the platform sends. */
export function platformOpenApi(routes: RouteDefinition[], apiSchema: GraphQLSchema, publicUrl: string): Record<string, unknown> {
  const document = buildOpenApiDocument(routes, apiSchema, { serverUrl: publicUrl });
  Object.assign(document.paths as object, ASSET_OPENAPI_PATHS);
  // Public routes take no credentials: `security: []` overrides the document-wide requirement (OpenAPI 3.1), and 401/403 cannot happen.
  for (const route of routes.filter((r) => r.auth === 'public')) {
    const operation = (document.paths as Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>)[route.path][route.method.toLowerCase()];
    operation.security = [];
    delete operation.responses['401'];
    delete operation.responses['403'];
  }
  document.webhooks = webhooksSection();
  return document;
}
