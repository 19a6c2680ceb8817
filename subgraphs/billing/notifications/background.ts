import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { JobQueue } from '../../../platform/jobs/job-queue';
import type { BackgroundWork } from '../../../platform/subgraph-definition';
import { EmailJobs } from './email-jobs';
import type { MailSettings } from '../../common/mail/mail-settings';
import { createMailTransport } from '../../common/mail/mail-transport';

/**
 * Billing's background work, started by the subgraph runtime in whichever process runs billing
 * (all-in-one or its own service): the gift card e-mail worker on the process's job queue,
 * configured by this process's settings (SMTP_URL, MAIL_FROM, NOTIFICATION_POLL_MS,
 * NOTIFICATION_SENDER, DATA_DIR) as the config loader read them.
 */
export async function startBillingBackground(orm: MikroORM, jobs: JobQueue, settings: MailSettings | null, log: Logger): Promise<BackgroundWork> {
  if (!settings) throw new Error('billing mail settings were not read (SubgraphDefinition.readSettings)');
  if (!settings.senderEnabled) return { stop: async () => undefined };
  const sender = new EmailJobs(orm, jobs, createMailTransport(settings), { pollMs: settings.pollMs, log });
  await sender.start();
  return { stop: () => sender.stop() };
}
