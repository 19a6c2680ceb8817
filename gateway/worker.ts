import { createLogger } from './logger';
import { ConfigError } from './config';
import { webhookMetricsHooks } from './metrics/webhook-hooks';
import { openJobQueue } from '../subgraphs/shared/jobs/job-queue';
import { readJobSettings } from '../subgraphs/shared/jobs/job-settings';
import { startWebhookWorkers } from '../subgraphs/tenant/webhooks/start';
import { readWebhookSettings } from '../subgraphs/tenant/webhooks/settings';

/**
 * `npm run worker`: the tenant subgraph's webhook workers as their own process (distributed mode),
 * on the shared job queue; several may run at once.
 */
async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  const jobSettings = readJobSettings(process.env);
  const problems = [...jobSettings.problems, ...readWebhookSettings(process.env).problems];
  if (!databaseUrl) problems.unshift('DATABASE_URL is required: the worker delivers from the shared database');
  if (problems.length) throw new ConfigError(problems);
  const log = createLogger(process.env.LOG_LEVEL ?? 'info').child({ service: 'webhook-worker' });
  const jobs = await openJobQueue(databaseUrl!, { supervise: true, settings: jobSettings.settings!, onError: (error) => log.error({ err: error }, 'job queue error') });
  const workers = await startWebhookWorkers(jobs, process.env, log, webhookMetricsHooks);
  log.info({ pid: process.pid }, 'webhook worker started');
  const shutdown = async () => {
    await workers.stop();
    await jobs.stop();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
