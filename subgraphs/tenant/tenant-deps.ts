import pino, { type Logger } from 'pino';
import type { SubgraphContext } from '../../platform/context';
import { FairShare } from '../../platform/fair-share';
import { LOGO_DECODES_AT_ONCE, LOGO_DECODES_QUEUED_PER_TENANT, LOGO_DECODE_WAIT_MS } from './logo-limits';
import { createMailTransport, type MailTransport } from '../common/mail/mail-transport';
import type { TenantSubgraphSettings } from './subgraph-settings';

/** The tenant subgraph's collaborators and switches, built once per running subgraph (SubgraphDefinition.configure). */
export interface TenantDeps {
  /** ALLOW_HTTP_WEBHOOKS=1: plain-http and internal webhook endpoints may be saved (development, tests). */
  allowInsecureWebhooks: boolean;
  /** Where invitations are e-mailed (SMTP, or .eml files under DATA_DIR/mail); null without settings (tests that build the subgraph bare). */
  mail: MailTransport | null;
  /** Where the subgraph's collaborators log (an invitation e-mail not sent). */
  log: Logger;
  /** Logo decodes: one per tenant and LOGO_DECODES_AT_ONCE per process, a fair queue across tenants (docs/decisions.md, Fair shares between tenants). */
  decodes: FairShare;
}

/** The resolver context of the tenant subgraph. */
export type TenantContext = SubgraphContext<TenantDeps>;

/** The tenant subgraph's deps from its settings (WEBHOOK_*, ALLOW_HTTP_WEBHOOKS, the mail settings). */
export function configureTenant(settings: TenantSubgraphSettings | null, log: Logger = pino({ level: 'silent' })): TenantDeps {
  return {
    log,
    allowInsecureWebhooks: settings?.webhooks.allowInternal ?? false,
    mail: settings ? lazyTransport(settings) : null,
    decodes: new FairShare('logo', { perKey: 1, total: LOGO_DECODES_AT_ONCE, maxWaitMs: LOGO_DECODE_WAIT_MS, maxQueuedPerKey: LOGO_DECODES_QUEUED_PER_TENANT }),
  };
}

/** A transport made on the first invitation: most processes never send one (and nodemailer is loaded only then). */
function lazyTransport(settings: TenantSubgraphSettings): MailTransport {
  let transport: MailTransport | undefined;
  return {
    send: (message, key) => (transport ??= createMailTransport(settings.mail)).send(message, key),
    close: () => transport?.close(),
  };
}
