import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../schema/paths';
import { haproxyProcess } from './haproxy';
import { buildNetwork, listeners, run, sweep, unavailableReason } from './network';
import { ClusterProcess } from './process';
import { cloneReplica, createDatabase, postgresBinaries, preparePostgres } from './postgres';
import { CLUSTER_REPLICA_MAX_LAG_MS, GATEWAY_PORT, LB_PORT, PRIMARY_PORT, REDIS_PORT, REPLICA_PORT, SUBGRAPH_METRICS_PORT, SUBGRAPH_PORTS, clusterHosts, namespaceOf, type Host } from './topology';

/** Settings of a harness run. */
export interface ClusterOptions {
  /** Extra environment for every platform process (rate limits, log level...). */
  env?: NodeJS.ProcessEnv;
  /** Keep the work folder (logs, databases) after teardown. */
  keepWork?: boolean;
  /** Progress lines; silent by default. */
  say?: (line: string) => void;
}

/** A running cluster: its hosts, its processes by name, where to send requests, and its teardown. */
export interface Cluster {
  hosts: Host[];
  host(name: string): Host;
  processes: Map<string, ClusterProcess>;
  /** The load balancer's URL, reachable from the client host. */
  url: string;
  operatorToken: string;
  workDir: string;
  /** Runs a command on a host (inside its namespace) and answers its output. */
  exec(host: Host, command: string, args: string[]): string;
  /** Stops every process and removes every namespace; safe to call twice. */
  teardown(): Promise<void>;
}

/** Why the harness cannot run on this machine, or null: the one line a skipped run prints. */
export function clusterUnavailable(): string | null {
  const missing = ['haproxy', 'redis-server', 'curl', 'tc', 'iptables-legacy'].filter((program) => !onPath(program));
  if (missing.length) return `missing ${missing.join(', ')}: apt-get install haproxy redis-server curl iproute2 iptables`;
  return unavailableReason() ?? (postgresBinaries() ? null : 'no PostgreSQL server programs (initdb, pg_basebackup): apt-get install postgresql');
}

/** The built programs the hosts run (`npm run build`), whether the harness runs from dist/ or from source under jest. */
const DIST = join(repoRoot(), 'dist');

/**
 * Starts the whole cluster of issue 36 in network namespaces: switch, hosts, PostgreSQL primary and
 * streaming replica, Redis, migrations, two replicas of each subgraph (analytics reading from the
 * PostgreSQL replica; each with its metrics port), the worker, two gateways and HAProxy, every
 * process bound to its own host's address. Anything left by an earlier run is swept
 * first; a failure part-way tears down what was started and throws.
 */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const say = options.say ?? (() => undefined);
  const reason = clusterUnavailable();
  if (reason) throw new Error(`cluster harness unavailable: ${reason}`);
  sweep();
  const hosts = clusterHosts();
  const host = (name: string) => hosts.find((h) => h.name === name) ?? raise(`no host ${name}`);
  const workDir = mkdtempSync(join(tmpdir(), 'hpp-cluster-'));
  // PostgreSQL runs as its own user, who must be able to reach its folders under this one.
  chmodSync(workDir, 0o755);
  const logDir = join(workDir, 'logs');
  mkdirSync(logDir);
  const processes = new Map<string, ClusterProcess>();
  let tornDown = false;
  const teardown = async () => {
    if (tornDown) return;
    tornDown = true;
    await Promise.all([...processes.values()].reverse().map((p) => p.stop(3_000, p.spec.name.startsWith('postgres') ? 'SIGINT' : 'SIGTERM')));
    sweep();
    if (!options.keepWork) rmSync(workDir, { recursive: true, force: true });
  };
  const operatorToken = randomBytes(24).toString('hex');
  try {
    say('network: switch and 16 hosts');
    buildNetwork(hosts);
    const db = host('db');
    const bin = postgresBinaries()!;
    say('database host: PostgreSQL primary and streaming replica');
    const pg = preparePostgres(db, workDir, logDir, bin);
    processes.set('postgres-primary', pg.primary);
    await pg.primary.start();
    cloneReplica(db, bin, pg.replicaDir);
    processes.set('postgres-replica', pg.replica);
    await pg.replica.start();
    createDatabase(db, bin, 'platform');
    const redis = new ClusterProcess(
      { name: 'redis', host: host('redis'), command: 'redis-server', args: ['--bind', host('redis').address, '--port', String(REDIS_PORT), '--save', '', '--appendonly', 'no'], readyLine: /Ready to accept connections/ },
      logDir,
    );
    processes.set('redis', redis);
    await redis.start();

    const env: NodeJS.ProcessEnv = {
      NODE_ENV: 'production',
      DATABASE_URL: `postgres://postgres@${db.address}:${PRIMARY_PORT}/platform`,
      INTERNAL_SECRET: randomBytes(24).toString('hex'),
      OPERATOR_TOKEN: operatorToken,
      REDIS_URL: `redis://${host('redis').address}:${REDIS_PORT}`,
      LOG_LEVEL: 'warn',
      DEMO_TENANT: '0',
      DATA_DIR: join(workDir, 'app-data'),
      PUBLIC_URL: `http://${host('lb').address}`,
      ...options.env,
    };
    say('migrations');
    const migrate = new ClusterProcess({ name: 'migrate', host: host('gw1'), command: process.execPath, args: [join(DIST, 'gateway', 'migrate.js')], env }, logDir);
    await migrate.start();
    await migrate.whenExited();
    if (migrate.exitCode !== 0) throw new Error(`migrations failed (exit ${migrate.exitCode}); see ${migrate.logFile}`);

    say('subgraphs: two hosts each');
    const node = (name: string, on: Host, script: string, extra: NodeJS.ProcessEnv, readyLine: RegExp) =>
      new ClusterProcess({ name, host: on, command: process.execPath, args: [join(DIST, script)], env: { ...env, ...extra }, readyLine, readyMs: 120_000 }, logDir);
    const subgraphHosts = hosts.filter((h) => h.role === 'subgraph');
    // Analytics reads its lists and aggregates from the streaming replica (docs/decisions.md, "Analytics reads from a replica").
    const replica = { DATABASE_REPLICA_URL: `postgres://postgres@${db.address}:${REPLICA_PORT}/platform`, REPLICA_MAX_LAG_MS: String(CLUSTER_REPLICA_MAX_LAG_MS) };
    await Promise.all(
      subgraphHosts.map((h) => {
        const own = { HOST: h.address, PORT: String(SUBGRAPH_PORTS[h.subgraph!]), METRICS_PORT: String(SUBGRAPH_METRICS_PORT), ...(h.subgraph === 'analytics' ? replica : {}) };
        const service = node(h.name, h, join('subgraphs', h.subgraph!, 'main.js'), own, /"msg":"listening"/);
        processes.set(h.name, service);
        return service.start();
      }),
    );
    // Its start line is at info level.
    const worker = node('worker', host('worker'), join('gateway', 'worker.js'), { LOG_LEVEL: 'info' }, /webhook worker started/);
    processes.set('worker', worker);
    await worker.start();

    say('gateways and the load balancer');
    // Each subgraph's two replicas, listed for the gateway to spread queries over and fail over between.
    const subgraphUrls = Object.fromEntries(
      (Object.keys(SUBGRAPH_PORTS) as (keyof typeof SUBGRAPH_PORTS)[]).map((name) => [
        `SUBGRAPH_${name.toUpperCase()}_URL`,
        subgraphHosts.filter((h) => h.subgraph === name).map((h) => `http://${h.address}:${SUBGRAPH_PORTS[name]}`).join(','),
      ]),
    );
    const gateways = hosts.filter((h) => h.role === 'gateway');
    await Promise.all(
      gateways.map((h) => {
        const gateway = node(h.name, h, join('gateway', 'main.js'), { MODE: 'distributed', HOST: h.address, PORT: String(GATEWAY_PORT), MAX_CONNECTIONS_PER_ADDRESS: '0', ...subgraphUrls }, /is listening on/);
        processes.set(h.name, gateway);
        return gateway.start();
      }),
    );
    const lb = haproxyProcess(host('lb'), gateways, workDir, logDir);
    processes.set('haproxy', lb);
    await lb.start();
    const url = `http://${host('lb').address}:${LB_PORT}`;
    await untilReady(host('client'), url);
    const exec = (on: Host, command: string, args: string[]) => run('ip', ['netns', 'exec', namespaceOf(on), command, ...args]);
    return { hosts, host, processes, url, operatorToken, workDir, exec, teardown };
  } catch (err) {
    await teardown();
    throw err;
  }
}

/** Waits until the load balancer answers `/readyz` with 200 from the client host (both gateways checked up). */
async function untilReady(client: Host, url: string, limitMs = 30_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      const status = run('ip', ['netns', 'exec', namespaceOf(client), 'curl', '-s', '-o', '/dev/null', '-w', '%{http_code}', '--max-time', '2', `${url}/readyz`]);
      if (status === '200') return;
    } catch {
      // Not yet.
    }
    if (Date.now() - started > limitMs) throw new Error(`load balancer not ready at ${url} within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Every listening socket on every host that is not bound to that host's own address (0.0.0.0 or another). */
export function strayListeners(cluster: Cluster): string[] {
  return cluster.hosts.flatMap((h) =>
    listeners(h)
      .filter((socket) => !socket.startsWith(`${h.address}:`) && !socket.startsWith('127.0.0.1:') && !socket.startsWith('[::1]:'))
      .map((socket) => `${h.name}: ${socket}`),
  );
}

const onPath = (program: string) => (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, program)));

function raise(message: string): never {
  throw new Error(message);
}
