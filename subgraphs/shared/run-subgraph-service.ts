import { DEFAULT_SHUTDOWN_GRACE_MS } from './http-drain';
import { serveSubgraph } from './serve-subgraph';
import type { SubgraphDefinition } from './subgraph-definition';
import { startSubgraph } from './subgraph-runtime';

/**
 * The `main` of a subgraph service: reads DATABASE_URL, INTERNAL_SECRET, PORT, HOST, PUBLIC_URL and SHUTDOWN_GRACE_SECONDS, serves,
 * and shuts down cleanly on SIGTERM/SIGINT. Migrations are `npm run migrate`'s job here.
 */
export function runSubgraphService(definition: SubgraphDefinition, defaultPort: number): void {
  const problems: string[] = [];
  const databaseUrl = process.env.DATABASE_URL;
  const secret = process.env.INTERNAL_SECRET;
  const port = Number(process.env.PORT ?? defaultPort);
  const graceSeconds = Number(process.env.SHUTDOWN_GRACE_SECONDS ?? DEFAULT_SHUTDOWN_GRACE_MS / 1000);
  if (!databaseUrl) problems.push('DATABASE_URL is required');
  if (!secret) problems.push('INTERNAL_SECRET is required (the gateway sends it on every call)');
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push(`PORT must be a port number (got "${process.env.PORT}")`);
  if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > 600) problems.push(`SHUTDOWN_GRACE_SECONDS must be a whole number from 0 to 600 (got "${process.env.SHUTDOWN_GRACE_SECONDS}")`);
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
      await service.close(graceSeconds * 1000);
      await subgraph.close(graceSeconds * 1000);
      process.exit(0);
    };
    process.once('SIGTERM', shutdown);
    process.once('SIGINT', shutdown);
  })().catch((error) => {
    console.error(`The ${definition.name} subgraph failed to start: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  });
}
