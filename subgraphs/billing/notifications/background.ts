import type { MikroORM } from '@mikro-orm/postgresql';
import pino from 'pino';
import type { JobQueue } from '../../shared/jobs/job-queue';
import type { BackgroundWork } from '../../shared/subgraph-definition';
import { EmailJobs } from './email-jobs';
import { readMailSettings } from './mail-settings';
import { createMailTransport } from './mail-transport';
import { errorLogOptions } from '../../shared/loggable-error';

/**
 * Billing's background work, started by the subgraph runtime in whichever process runs billing
 * (all-in-one or its own service): the gift card e-mail worker on the process's job queue,
 * configured from this process's environment (SMTP_URL, MAIL_FROM, NOTIFICATION_POLL_MS,
 * NOTIFICATION_SENDER, DATA_DIR), already validated at start.
 */
export async function startBillingBackground(orm: MikroORM, jobs: JobQueue): Promise<BackgroundWork> {
  const { settings, problems } = readMailSettings(process.env);
  if (!settings) throw new Error(`billing mail settings: ${problems.join('; ')}`);
  if (!settings.senderEnabled) return { stop: async () => undefined };
  const log = pino({ base: { service: 'billing' }, level: process.env.LOG_LEVEL ?? 'info', timestamp: pino.stdTimeFunctions.isoTime, ...errorLogOptions });
  const sender = new EmailJobs(orm, jobs, createMailTransport(settings), { pollMs: settings.pollMs, log });
  await sender.start();
  return { stop: () => sender.stop() };
}
