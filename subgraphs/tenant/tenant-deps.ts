import type { SubgraphContext } from '../common/context';
import type { WebhookSettings } from './webhooks/settings';

/** The tenant subgraph's collaborators and switches, built once per running subgraph (SubgraphDefinition.configure). */
export interface TenantDeps {
  /** ALLOW_HTTP_WEBHOOKS=1: plain-http and internal webhook endpoints may be saved (development, tests). */
  allowInsecureWebhooks: boolean;
}

/** The resolver context of the tenant subgraph. */
export type TenantContext = SubgraphContext<TenantDeps>;

/** The tenant subgraph's deps from its settings (the WEBHOOK_* and ALLOW_HTTP_WEBHOOKS variables). */
export function configureTenant(settings: WebhookSettings | null): TenantDeps {
  return { allowInsecureWebhooks: settings?.allowInternal ?? false };
}
