import type { SettingsRead } from '../../platform/subgraph-definition';
import { readMailSettings, type MailSettings } from '../common/mail/mail-settings';
import { readWebhookSettings, type WebhookSettings } from './webhooks/settings';

/** What the tenant subgraph reads from its environment: how it delivers webhooks, and how it sends e-mail (invitations). */
export interface TenantSubgraphSettings {
  webhooks: WebhookSettings;
  mail: MailSettings;
}

/** Reads WEBHOOK_*, ALLOW_HTTP_WEBHOOKS and the mail settings (SMTP_URL, MAIL_FROM, DATA_DIR; billing reads the same), every problem listed. */
export function readTenantSubgraphSettings(env: Readonly<Record<string, string | undefined>>): SettingsRead<TenantSubgraphSettings | null> {
  const webhooks = readWebhookSettings(env);
  const mail = readMailSettings(env);
  const problems = [...webhooks.problems, ...mail.problems];
  return { settings: webhooks.settings && mail.settings && problems.length === 0 ? { webhooks: webhooks.settings, mail: mail.settings } : null, problems };
}
