// First: the tracing SDK patches http and pg before anything below loads them.
import { flushTracing } from './tracing/register';
import { collectDefaultMetrics, register } from 'prom-client';
import { serveMetrics } from './metrics-server';
import { serveSubgraph } from './serve-subgraph';
import { loadServiceConfig } from './service-config';
import type { SubgraphDefinition } from './subgraph-definition';
import { startSubgraph } from './subgraph-runtime';

/**
 * The `main` of a subgraph service: loads its configuration (service-config.ts), serves, and shuts
 * down cleanly on SIGTERM/SIGINT. Migrations are `npm run migrate`'s job here.
 */
export function runSubgraphService(definition: SubgraphDefinition, defaultPort: number): void {
  const { config, problems } = loadServiceConfig(process.env, definition, defaultPort);
  if (problems.length) {
    console.error(`The ${definition.name} subgraph cannot start:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exit(1);
  }
  (async () => {
    const subgraph = await startSubgraph(definition, config.databaseUrl, { migrate: false, publicUrl: config.publicUrl, settings: config.settings, log: config.log, poolMax: config.poolMax, readPool: config.plumbing.has('read-pool'), jobSettings: config.jobs, replica: config.replica });
    const service = await serveSubgraph(subgraph, { port: config.port, host: config.host, secret: config.secret });
    // Node's own metrics and what the subgraph registers (the analytics replica's lag); unauthenticated, so on a private interface.
    if (config.metricsPort !== null) collectDefaultMetrics();
    const metrics = config.metricsPort !== null ? await serveMetrics(config.metricsPort, config.metricsHost, () => register.metrics(), config.log) : null;
    const address = service.server.address();
    console.log(JSON.stringify({ service: definition.name, msg: 'listening', port: typeof address === 'object' && address ? address.port : config.port }));
    const shutdown = async () => {
      await service.close(config.graceMs);
      await metrics?.close();
      await subgraph.close(config.graceMs);
      await flushTracing();
      process.exit(0);
    };
    process.once('SIGTERM', shutdown);
    process.once('SIGINT', shutdown);
  })().catch((error) => {
    console.error(`The ${definition.name} subgraph failed to start: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  });
}
