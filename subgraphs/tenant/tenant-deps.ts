import type { SubgraphContext } from '../../platform/context';
import { FairShare } from '../../platform/fair-share';
import { LOGO_DECODES_AT_ONCE, LOGO_DECODES_QUEUED_PER_TENANT, LOGO_DECODE_WAIT_MS } from './logo-limits';
import type { WebhookSettings } from './webhooks/settings';

/** The tenant subgraph's collaborators and switches, built once per running subgraph (SubgraphDefinition.configure). */
export interface TenantDeps {
  /** ALLOW_HTTP_WEBHOOKS=1: plain-http and internal webhook endpoints may be saved (development, tests). */
  allowInsecureWebhooks: boolean;
  /** Logo decodes: one per tenant and LOGO_DECODES_AT_ONCE per process, a fair queue across tenants (docs/decisions.md, Fair shares between tenants). */
  decodes: FairShare;
}

/** The resolver context of the tenant subgraph. */
export type TenantContext = SubgraphContext<TenantDeps>;

/** The tenant subgraph's deps from its settings (the WEBHOOK_* and ALLOW_HTTP_WEBHOOKS variables). */
export function configureTenant(settings: WebhookSettings | null): TenantDeps {
  return {
    allowInsecureWebhooks: settings?.allowInternal ?? false,
    decodes: new FairShare('logo', { perKey: 1, total: LOGO_DECODES_AT_ONCE, maxWaitMs: LOGO_DECODE_WAIT_MS, maxQueuedPerKey: LOGO_DECODES_QUEUED_PER_TENANT }),
  };
}
