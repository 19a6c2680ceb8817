import type { Logger } from 'pino';
import type { JobQueue } from '../../shared/jobs/job-queue';
import type { DeliveryHooks } from './deliver';
import { readWebhookSettings } from './settings';
import { WebhookJobs } from './webhook-jobs';

/**
 * Starts the tenant subgraph's webhook workers on `jobs` with this process's settings (the
 * WEBHOOK_* variables): what an entry point calls, in-process (all-in-one) or `npm run worker`.
 * Throws the list of problems when a setting is wrong.
 */
export async function startWebhookWorkers(jobs: JobQueue, env: NodeJS.ProcessEnv, log: Pick<Logger, 'info' | 'error'>, hooks: DeliveryHooks = {}): Promise<WebhookJobs> {
  const { settings, problems } = readWebhookSettings(env);
  if (!settings) throw new Error(`webhook settings: ${problems.join('; ')}`);
  const workers = new WebhookJobs(jobs, settings, log, hooks);
  await workers.start();
  return workers;
}
