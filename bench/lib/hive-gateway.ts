import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../gateway/database/free-port';
import { readSupergraph } from '../../schema/supergraph';
import type { SubgraphName } from '../../platform/subgraph-definition';
import { startChild, type Child } from './child';
import { waitForUrl } from './readiness';
import { SERVER_NODE_FLAGS } from './server-flags';
import type { Teardown } from './teardown';

/** The package's dist/ folder; its `exports` open neither the CLI's file nor package.json. */
const HIVE_DIST = path.dirname(require.resolve('@graphql-hive/gateway'));

/** The installed Hive Gateway's version, for the record. */
export const hiveVersion = (): string => JSON.parse(fs.readFileSync(path.join(HIVE_DIST, '..', 'package.json'), 'utf8')).version;

/** Hive Gateway running as a child process in front of the subgraph services. */
export interface PeerGateway {
  child: Child;
  url: string;
}

/**
 * Starts Hive Gateway's CLI (`hive-gateway supergraph`, a dev dependency of the benchmark only)
 * on the checked-in supergraph, its subgraph URLs pointed at the running services, with
 * `--fork workers` so that it runs as many processes as the project's gateway; everything else
 * is its default (bench/hive-gateway.config.ts adds the identity headers the services require).
 */
export async function startHiveGateway(subgraphUrls: Record<SubgraphName, string>, secret: string, workers: number, teardown: Teardown): Promise<PeerGateway> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-hive-'));
  teardown.add('Hive Gateway files', async () => fs.rmSync(dir, { recursive: true, force: true }));
  // The supergraph names in-process subgraphs (`local://tenant`); Hive gets the services' URLs.
  const supergraph = readSupergraph().replace(/url: "local:\/\/(\w+)"/g, (whole, name: string) => (name in subgraphUrls ? `url: "${subgraphUrls[name as SubgraphName]}/graphql"` : whole));
  const supergraphFile = path.join(dir, 'supergraph.graphql');
  fs.writeFileSync(supergraphFile, supergraph);
  const port = await freePort();
  const bin = path.join(HIVE_DIST, 'bin.js');
  const config = path.join(__dirname, '..', 'hive-gateway.config.js');
  const child = startChild('hive-gateway', bin, { NODE_ENV: 'production', HPP_BENCH_INTERNAL_SECRET: secret }, SERVER_NODE_FLAGS, [
    'supergraph',
    supergraphFile,
    '--config-path',
    config,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--fork',
    String(workers),
  ]);
  teardown.add('Hive Gateway', () => child.stop());
  const url = `http://127.0.0.1:${port}`;
  await waitForUrl(child, `${url}/readiness`);
  child.echo();
  return { child, url };
}
