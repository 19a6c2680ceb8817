// First: the tracing SDK patches http and pg before anything below loads them.
import '../subgraphs/common/tracing/register';
import { createLogger } from './logger';
import { webhookMetricsHooks } from './metrics/webhook-hooks';
import { openJobQueue } from '../subgraphs/common/jobs/job-queue';
import { startWebhookWorkers } from '../subgraphs/tenant';
import { loadWorkerConfig } from './worker-config';

/**
 * `npm run worker`: the tenant subgraph's webhook workers as their own process (distributed mode),
 * on the shared job queue; several may run at once.
 */
async function main(): Promise<void> {
  const config = loadWorkerConfig();
  const log = createLogger(config.logLevel).child({ component: 'webhook-worker' });
  const jobs = await openJobQueue(config.databaseUrl, { supervise: true, settings: config.jobs, onError: (error) => log.error({ err: error }, 'job queue error') });
  const workers = await startWebhookWorkers(jobs, config.webhooks, log, webhookMetricsHooks);
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
