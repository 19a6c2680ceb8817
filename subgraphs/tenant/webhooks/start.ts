import type { Logger } from 'pino';
import type { JobQueue } from '../../../platform/jobs/job-queue';
import type { DeliveryHooks } from './deliver';
import type { WebhookSettings } from './settings';
import { WebhookJobs } from './webhook-jobs';

/**
 * Starts the tenant subgraph's webhook workers on `jobs` with the subgraph's settings (the
 * WEBHOOK_* variables, as its `readSettings` read them): what an entry point calls, in-process
 * (all-in-one) or `npm run worker`.
 */
export async function startWebhookWorkers(jobs: JobQueue, settings: WebhookSettings, log: Pick<Logger, 'info' | 'error'>, hooks: DeliveryHooks = {}): Promise<WebhookJobs> {
  const workers = new WebhookJobs(jobs, settings, log, hooks);
  await workers.start();
  return workers;
}
