import type { MikroORM } from '@mikro-orm/postgresql';
import pino from 'pino';
import type { BackgroundWork } from '../../shared/subgraph-definition';
import { readMailSettings } from './mail-settings';
import { createMailTransport } from './mail-transport';
import { NotificationSender } from './notification-sender';
import { errorLogOptions } from '../../shared/loggable-error';

/**
 * Billing's background work, started by the subgraph runtime in whichever process runs billing
 * (all-in-one or its own service): the notification sender, configured from this process's
 * environment (SMTP_URL, MAIL_FROM, NOTIFICATION_POLL_MS, NOTIFICATION_SENDER, DATA_DIR), already validated at start.
 */
export function startBillingBackground(orm: MikroORM): BackgroundWork {
  const { settings, problems } = readMailSettings(process.env);
  if (!settings) throw new Error(`billing mail settings: ${problems.join('; ')}`);
  if (!settings.senderEnabled) return { stop: async () => undefined };
  const log = pino({ base: { service: 'billing' }, level: process.env.LOG_LEVEL ?? 'info', timestamp: pino.stdTimeFunctions.isoTime, ...errorLogOptions });
  const sender = new NotificationSender(orm, createMailTransport(settings), { pollMs: settings.pollMs, log });
  sender.start();
  return { stop: () => sender.stop() };
}
