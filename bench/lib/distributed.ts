import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { freePort } from '../../gateway/database/free-port';
import { SUBGRAPH_NAMES, type SubgraphName } from '../../platform/subgraph-definition';
import { startApp, type AppUnderTest } from './app';
import { startChild, type Child } from './child';
import { waitForUrl } from './readiness';
import { SERVER_NODE_FLAGS } from './server-flags';
import type { Teardown } from './teardown';

/** The platform in distributed mode: four subgraph services and the gateway in front of them. */
export interface DistributedApp {
  gateway: AppUnderTest;
  subgraphs: Child[];
  subgraphUrls: Record<SubgraphName, string>;
  /** INTERNAL_SECRET the services accept (a peer gateway must send it too). */
  secret: string;
}

/**
 * Starts each subgraph service from dist/ (as `docker compose` runs them), then the gateway with
 * `MODE=distributed` and `workers` HTTP workers. Small pools: the PostgreSQL is shared with the
 * all-in-one app and, on a developer's machine, with other work.
 */
export async function startDistributed(databaseUrl: string, workers: number, teardown: Teardown): Promise<DistributedApp> {
  const secret = randomBytes(24).toString('hex');
  const common = { DATABASE_URL: databaseUrl, INTERNAL_SECRET: secret, LOG_LEVEL: 'warn', NODE_ENV: 'production', DB_POOL_MAX: '5', WEBHOOK_DISPATCHER: 'off' };
  const subgraphUrls = {} as Record<SubgraphName, string>;
  const subgraphs = await Promise.all(
    SUBGRAPH_NAMES.map(async (name) => {
      const port = await freePort();
      const child = startChild(`${name} subgraph`, path.join(__dirname, '..', '..', 'subgraphs', name, 'main.js'), { ...common, PORT: String(port), HOST: '127.0.0.1' }, SERVER_NODE_FLAGS);
      teardown.add(`${name} subgraph service`, () => child.stop());
      subgraphUrls[name] = `http://127.0.0.1:${port}`;
      await waitForUrl(child, `${subgraphUrls[name]}/healthz`);
      child.echo();
      return child;
    }),
  );
  const urls = Object.fromEntries(SUBGRAPH_NAMES.map((name) => [`SUBGRAPH_${name.toUpperCase()}_URL`, subgraphUrls[name]]));
  const gateway = await startApp(databaseUrl, workers, { ...common, MODE: 'distributed', DB_POOL_MAX: '2', ...urls });
  teardown.add('distributed gateway', () => gateway.child.stop());
  return { gateway, subgraphs, subgraphUrls, secret };
}
