// First: the tracing SDK patches http and pg before anything below loads them.
import { flushTracing } from './tracing/register';
import { readShutdownGraceMs } from './http-drain';
import { serveSubgraph } from './serve-subgraph';
import type { SubgraphDefinition } from './subgraph-definition';
import { startSubgraph } from './subgraph-runtime';
import { readTracingSettings } from './tracing/settings';

/**
 * The `main` of a subgraph service: reads DATABASE_URL, INTERNAL_SECRET, PORT, HOST, PUBLIC_URL, SHUTDOWN_GRACE_SECONDS and OTEL_* (docs/tracing.md), serves,
 * and shuts down cleanly on SIGTERM/SIGINT. Migrations are `npm run migrate`'s job here.
 */
export function runSubgraphService(definition: SubgraphDefinition, defaultPort: number): void {
  const problems: string[] = [];
  const databaseUrl = process.env.DATABASE_URL;
  const secret = process.env.INTERNAL_SECRET;
  const port = Number(process.env.PORT ?? defaultPort);
  const graceMs = readShutdownGraceMs(process.env, problems);
  problems.push(...readTracingSettings(process.env).problems);
  if (!databaseUrl) problems.push('DATABASE_URL is required');
  if (!secret) problems.push('INTERNAL_SECRET is required (the gateway sends it on every call)');
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push(`PORT must be a port number (got "${process.env.PORT}")`);
  if (problems.length) {
    console.error(`The ${definition.name} subgraph cannot start:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exit(1);
  }
  (async () => {
    const subgraph = await startSubgraph(definition, databaseUrl!, { migrate: false, publicUrl: process.env.PUBLIC_URL });
    const service = await serveSubgraph(subgraph, { port, host: process.env.HOST ?? '0.0.0.0', secret: secret! });
    const address = service.server.address();
    console.log(JSON.stringify({ service: definition.name, msg: 'listening', port: typeof address === 'object' && address ? address.port : port }));
    const shutdown = async () => {
      await service.close(graceMs);
      await subgraph.close(graceMs);
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
