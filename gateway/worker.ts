// First: the tracing SDK patches http and pg before anything below loads them.
import '../platform/tracing/register';
import { createLogger } from './logger';
import { webhookMetricsHooks } from './metrics/webhook-hooks';
import { openJobQueue } from '../platform/jobs/job-queue';
import { startWebhookWorkers } from '../subgraphs/tenant';
import { loadWorkerConfig } from './worker-config';
import { Lifecycle } from './lifecycle';
import { jobQueueErrorReporter } from '../platform/error-reporters';

/**
 * `npm run worker`: the tenant subgraph's webhook workers as their own process (distributed mode),
 * on the shared job queue; several may run at once.
 */
async function main(): Promise<void> {
  const config = loadWorkerConfig();
  const log = createLogger(config.logLevel).child({ component: 'webhook-worker' });
  const life = new Lifecycle(log);
  const jobs = await life.step(
    () => openJobQueue(config.databaseUrl, { supervise: true, settings: config.jobs, onError: jobQueueErrorReporter(log) }),
    (started) => started.stop(),
  );
  await life.step(
    () => startWebhookWorkers(jobs, config.webhooks, log, webhookMetricsHooks),
    (started) => started.stop(),
  );
  log.info({ pid: process.pid }, 'webhook worker started');
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
