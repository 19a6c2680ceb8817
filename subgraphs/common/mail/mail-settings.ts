import { resolve } from 'node:path';
import { isEmail } from '../field-rules';

/** How billing sends e-mail (docs/operations.md: configuration). */
export interface MailSettings {
  /** `smtp://` or `smtps://` URL; null: messages are written as .eml files under `mailDir` instead. */
  smtpUrl: string | null;
  /** The From header, `Name <address>` or a bare address. */
  from: string;
  /** `<DATA_DIR>/mail`, used without SMTP. */
  mailDir: string;
  /** How often the sender looks for due notifications. */
  pollMs: number;
  /** False with NOTIFICATION_SENDER=off: this process queues e-mail but another one sends it. */
  senderEnabled: boolean;
  /** NOTIFICATION_DAILY_LIMIT: e-mails one tenant may queue in any 24 hours (issue 31, finding 13). */
  dailyLimitPerTenant: number;
}

/** MAIL_FROM when unset: a reserved example domain, so a forgotten setting cannot spoof anyone. */
export const DEFAULT_MAIL_FROM = 'Healthcare Practice Platform <no-reply@example.com>';
/** NOTIFICATION_POLL_MS when unset. */
export const DEFAULT_POLL_MS = 5_000;
/** NOTIFICATION_DAILY_LIMIT when unset: far above a clinic's gift cards in a day, far below a spam run. */
export const DEFAULT_DAILY_LIMIT = 500;

/**
 * Reads SMTP_URL, MAIL_FROM, NOTIFICATION_POLL_MS, NOTIFICATION_SENDER, NOTIFICATION_DAILY_LIMIT and DATA_DIR. Shared by the gateway's
 * configuration (all-in-one: every problem listed at start) and the billing subgraph's own main
 * (distributed), so both accept the same values. The SMTP URL may hold a password: never logged.
 */
export function readMailSettings(env: NodeJS.ProcessEnv): { settings: MailSettings | null; problems: string[] } {
  const text = (name: string) => (env[name] && env[name]!.trim() !== '' ? env[name]!.trim() : null);
  const problems: string[] = [];
  const smtpUrl = text('SMTP_URL');
  if (smtpUrl) {
    let protocol = '';
    try {
      protocol = new URL(smtpUrl).protocol;
    } catch {
      // reported below
    }
    if (protocol !== 'smtp:' && protocol !== 'smtps:') problems.push('SMTP_URL must be an smtp:// or smtps:// URL');
  }
  const from = text('MAIL_FROM') ?? DEFAULT_MAIL_FROM;
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from;
  if (!isEmail(address.trim())) problems.push(`MAIL_FROM must be an e-mail address or "Name <address>" (got "${from}")`);
  const rawPoll = text('NOTIFICATION_POLL_MS');
  const pollMs = rawPoll === null ? DEFAULT_POLL_MS : Number(rawPoll);
  if (!Number.isInteger(pollMs) || pollMs < 50 || pollMs > 3_600_000) problems.push(`NOTIFICATION_POLL_MS must be a whole number from 50 to 3600000 (got "${rawPoll}")`);
  const sender = text('NOTIFICATION_SENDER') ?? 'on';
  if (sender !== 'on' && sender !== 'off') problems.push(`NOTIFICATION_SENDER must be "on" or "off" (got "${sender}")`);
  const rawLimit = text('NOTIFICATION_DAILY_LIMIT');
  const dailyLimitPerTenant = rawLimit === null ? DEFAULT_DAILY_LIMIT : Number(rawLimit);
  if (!Number.isInteger(dailyLimitPerTenant) || dailyLimitPerTenant < 0 || dailyLimitPerTenant > 1_000_000) problems.push(`NOTIFICATION_DAILY_LIMIT must be a whole number from 0 to 1000000 (got "${rawLimit}")`);
  const mailDir = resolve(text('DATA_DIR') ?? '.data', 'mail');
  return { settings: problems.length ? null : { smtpUrl, from, mailDir, pollMs, senderEnabled: sender === 'on', dailyLimitPerTenant }, problems };
}
