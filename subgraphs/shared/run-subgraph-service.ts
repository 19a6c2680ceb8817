import { readShutdownGraceMs } from './http-drain';
import { readJobSettings } from './jobs/job-settings';
import { serveSubgraph } from './serve-subgraph';
import type { SubgraphDefinition } from './subgraph-definition';
import { startSubgraph } from './subgraph-runtime';

/**
 * The `main` of a subgraph service: reads DATABASE_URL, INTERNAL_SECRET, PORT, HOST, PUBLIC_URL, SHUTDOWN_GRACE_SECONDS and JOB_SUPERVISE_SECONDS, serves,
 * and shuts down cleanly on SIGTERM/SIGINT. Migrations are `npm run migrate`'s job here.
 */
export function runSubgraphService(definition: SubgraphDefinition, defaultPort: number): void {
  const problems: string[] = [];
  const databaseUrl = process.env.DATABASE_URL;
  const secret = process.env.INTERNAL_SECRET;
  const port = Number(process.env.PORT ?? defaultPort);
  const graceMs = readShutdownGraceMs(process.env, problems);
  const jobs = readJobSettings(process.env);
  problems.push(...jobs.problems);
  if (!databaseUrl) problems.push('DATABASE_URL is required');
  if (!secret) problems.push('INTERNAL_SECRET is required (the gateway sends it on every call)');
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push(`PORT must be a port number (got "${process.env.PORT}")`);
  if (problems.length) {
    console.error(`The ${definition.name} subgraph cannot start:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exit(1);
  }
  (async () => {
    const subgraph = await startSubgraph(definition, databaseUrl!, { migrate: false, publicUrl: process.env.PUBLIC_URL, jobSettings: jobs.settings! });
    const service = await serveSubgraph(subgraph, { port, host: process.env.HOST ?? '0.0.0.0', secret: secret! });
    const address = service.server.address();
    console.log(JSON.stringify({ service: definition.name, msg: 'listening', port: typeof address === 'object' && address ? address.port : port }));
    const shutdown = async () => {
      await service.close(graceMs);
      await subgraph.close(graceMs);
      process.exit(0);
    };
    process.once('SIGTERM', shutdown);
    process.once('SIGINT', shutdown);
  })().catch((error) => {
    console.error(`The ${definition.name} subgraph failed to start: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  });
}
