import { IDENTITY_HEADERS } from '../../platform/context';
import { actorText } from '../../schema/actor';
import type { RequestContext } from '../../schema/request-context';

/**
 * The headers that carry a request's identity to a subgraph service over HTTP (read back by
 * platform/serve-subgraph.ts), for fetches and subscriptions alike. Scopes do not travel: the
 * gateway decides them (gateway/access/).
 */
export function identityHeaders(ctx: Partial<RequestContext>, secret: string): Record<string, string> {
  const headers: Record<string, string> = { [IDENTITY_HEADERS.secret]: secret };
  if (ctx.tenantId) headers[IDENTITY_HEADERS.tenant] = ctx.tenantId;
  if (ctx.requestId) headers[IDENTITY_HEADERS.requestId] = ctx.requestId;
  if (ctx.actor) headers[IDENTITY_HEADERS.actor] = actorText(ctx.actor);
  if (ctx.clientAddress) headers[IDENTITY_HEADERS.clientAddress] = ctx.clientAddress;
  if (ctx.idempotencyKey) headers[IDENTITY_HEADERS.idempotencyKey] = ctx.idempotencyKey;
  return headers;
}
