import cluster from 'node:cluster';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { collectDefaultMetrics } from 'prom-client';
import type { Config } from '../config';
import type { Platform } from '../database/platform';
import { joinClusterScrapes, scrapeAll, servePrimaryScrapes } from './cluster-scrape';
import { watchBacklogs, watchPools } from './database-gauges';
import { serveMetrics } from '../../platform/metrics-server';

/** Whether anything can scrape: a metrics port, or the operator's `/metrics`. */
export const metricsEnabled = (config: Config): boolean => config.metricsPort !== null || config.operatorToken !== null;

/**
 * An HTTP process's metrics beyond the request counters: Node's own (event-loop lag, heap, GC,
 * CPU), its pools, and in the process running background work the database backlogs. A single
 * process serves METRICS_PORT itself; a cluster worker answers the primary, which serves it.
 */
export async function startProcessMetrics(config: Config, platform: Platform, log: Logger, options: { first: boolean }): Promise<{ close(): Promise<void> }> {
  if (!metricsEnabled(config)) return { close: async () => undefined };
  collectDefaultMetrics();
  const orms = new Map<MikroORM, string>([[platform.gatewayOrm, 'gateway'], [platform.tenantOrm, 'tenant']]);
  for (const subgraph of platform.subgraphs ?? []) orms.set(subgraph.orm, subgraph.name);
  watchPools([...orms].map(([orm, name]) => ({ name, orm })));
  const backlogs = options.first ? watchBacklogs(platform.databaseUrl, log) : null;
  // Last: the primary asks a worker only once everything it reports is registered.
  joinClusterScrapes();
  const server = !cluster.isWorker && config.metricsPort !== null ? await serveMetrics(config.metricsPort, config.metricsHost, scrapeAll, log) : null;
  return {
    async close() {
      await server?.close();
      await backlogs?.close();
    },
  };
}

/** The primary of WEB_CONCURRENCY > 1: merges every worker's metrics, on METRICS_PORT and for workers' `/metrics`. */
export async function startPrimaryMetrics(config: Config, log: Logger): Promise<void> {
  if (!metricsEnabled(config)) return;
  const gather = servePrimaryScrapes();
  if (config.metricsPort !== null) await serveMetrics(config.metricsPort, config.metricsHost, gather, log);
}
