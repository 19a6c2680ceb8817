import type { WebhookConfig } from './entities/webhook-config.entity';

/** The webhook configuration as GraphQL resolves it; `secret` is set only right after creation or rotation. */
export interface WebhookConfigView {
  url: string | null;
  enabled: boolean;
  events: string[];
  secretHint: string | null;
  secret: string | null;
  createdAt: Date | null;
  updatedAt: Date | null;
  /** Set when the platform disabled the endpoint (a run of failures, or 410 Gone), until the tenant re-enables it. */
  disabledAt: Date | null;
  disabledReason: string | null;
}

/** What a tenant that never saved a configuration sees: nothing configured, nothing sent. */
export const UNCONFIGURED_WEBHOOK: Readonly<WebhookConfigView> = {
  url: null,
  enabled: false,
  events: [],
  secretHint: null,
  secret: null,
  createdAt: null,
  updatedAt: null,
  disabledAt: null,
  disabledReason: null,
};

/** Enough of the secret to tell two apart (`whsec_…AbCd`), too little to sign with. */
export const secretHint = (secret: string): string => `whsec_…${secret.slice(-4)}`;

/** The view of a stored configuration; pass `revealSecret` only in the answer that created or rotated it. */
export function toWebhookConfigView(config: WebhookConfig | null, revealSecret = false): WebhookConfigView {
  if (!config) return { ...UNCONFIGURED_WEBHOOK, events: [] };
  return {
    url: config.url,
    enabled: config.enabled,
    events: [...config.events],
    secretHint: secretHint(config.secret),
    secret: revealSecret ? config.secret : null,
    createdAt: config.createdAt,
    updatedAt: config.updatedAt,
    disabledAt: config.disabledAt,
    disabledReason: config.disabledReason,
  };
}
