// First: the tracing SDK patches http, pg and pino before anything below loads them.
import { flushTracing } from '../platform/tracing/register';
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
import { Lifecycle } from './lifecycle';
import { startWebhookWorkers, type TenantSubgraphSettings } from '../subgraphs/tenant';

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
  const life = new Lifecycle(log);
  // Undone last: spans of the shutdown itself are exported too.
  life.onStop(() => flushTracing());
  // With WEB_CONCURRENCY > 1 only the first worker migrates, seeds, prints and runs background work.
  const first = workerRole(config) === 'first';
  const platform = await life.step(
    () => bootPlatform(config, log, { migrate: config.mode === 'all-in-one' && first, background: first, ownsSignals: true }),
    (started) => started.stop(),
  );
  const app = await life.step(
    () => startApp(config, platform, log, { clustered: cluster.isWorker }),
    (started) => started.close(),
  );
  const metrics = await life.step(
    () => startProcessMetrics(config, platform, log, { first }),
    (started) => started.close(),
  );
  const base = config.publicUrl;
  log.info({ mode: config.mode, url: app.url }, 'listening');
  if (first) {
    const processes = config.workers > 1 ? `, ${config.workers} worker processes` : '';
    process.stdout.write(`\nHealthcare Practice Platform (${config.mode}${processes}) is listening on ${app.url}:\n  REST     ${base}/tenant/public\n  GraphQL  ${base}/graphql\n  SSE      ${base}/graphql/stream\n  WS       ${base.replace(/^http/, 'ws')}/graphql  (graphql-transport-ws)\n  Docs     ${base}/docs  (OpenAPI: ${base}/openapi.json)\n${config.console ? `  Console  ${base}/console\n` : ''}`);
    await life.step(() => createDemoTenantOnFirstStart(config, app.admin, base, log));
  }
  // All-in-one delivers webhooks in-process (the tenant subgraph's workers on this process's job
  // queue); distributed mode runs `npm run worker` instead.
  if (first && platform.jobs && config.webhookWorkers) {
    const jobs = platform.jobs;
    await life.step(
      () => startWebhookWorkers(jobs, (config.subgraphSettings.tenant as TenantSubgraphSettings).webhooks, log.child({ component: 'webhooks' }), webhookMetricsHooks),
      (started) => started.stop(),
    );
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
