import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { RateLimiterClusterMaster } from 'rate-limiter-flexible';
import type { Config } from '../config';
import { WORKER_ROLE_ENV, type WorkerRole } from './cluster-worker';
import { serveKeyRevocationRelay } from './key-revocation-relay';
import { startPrimaryMetrics } from '../metrics/start';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../database/embedded-postgres';
import { Lifecycle } from '../lifecycle';

/** How long workers get to drain before the primary kills them: requests, then queries, each within the grace period. */
const drainMs = (config: Config) => Math.max(30_000, 2 * config.shutdownGraceMs + 10_000);

/** Resolves once the worker listens; rejects if it exits first (its own error is already printed). */
function listening(worker: Worker): Promise<void> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null, signal: string | null) => reject(new Error(`worker ${worker.process.pid} exited during start-up (${signal ?? `code ${code}`})`));
    worker.once('exit', onExit);
    worker.once('listening', () => {
      worker.off('exit', onExit);
      resolve();
    });
  });
}

/**
 * The primary of `WEB_CONCURRENCY` > 1: one Node process per core serves HTTP, because one event
 * loop caps the stack's throughput (bench/RESULTS.md). The primary owns what must exist once: the
 * embedded PostgreSQL, the rate-limit counters (rate-limiter-flexible's cluster master, unless
 * Redis holds them) and the relay of API key revocations. The first worker migrates, seeds the
 * demo tenant and runs the background work; the others start once it listens. A worker that dies
 * later is replaced with the same role; SIGTERM/SIGINT drain every worker before the database stops.
 */
export async function runPrimary(config: Config, log: Logger): Promise<void> {
  // One scrape on the primary's METRICS_PORT (or a worker's /metrics) sums every worker; first, so a taken port stops nothing half-started.
  // A signal before the workers exist stops what has started (the database) and exits.
  const life = new Lifecycle(log);
  await life.step(() => startPrimaryMetrics(config, log));
  let embedded: EmbeddedPostgresHandle | null = null;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await life.step(
      () => startEmbeddedPostgres({ dataDir: config.dataDir, debug: config.embeddedPgDebug, log: (msg) => log.debug(msg), warn: (msg) => log.warn(msg), ownSignals: true }),
      (started) => started.stop(),
    );
    databaseUrl = embedded.url;
  }
  // From here a signal drains the workers before the database stops (below).
  life.release();
  if (!config.redisUrl) new RateLimiterClusterMaster();

  // Four subgraph pools per worker: keep the total near what one process would open.
  const env = { DATABASE_URL: databaseUrl, DB_POOL_MAX: String(config.dbPoolMax ?? Math.max(2, Math.ceil(10 / config.workers))) };
  const roles = new Map<number, WorkerRole>();
  const fork = (role: WorkerRole): Worker => {
    const worker = cluster.fork({ ...env, [WORKER_ROLE_ENV]: role });
    roles.set(worker.id, role);
    return worker;
  };
  const workers = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w));

  let running = false;
  let stopping = false;
  serveKeyRevocationRelay();
  cluster.on('exit', (worker, code, signal) => {
    const role = roles.get(worker.id) ?? 'other';
    roles.delete(worker.id);
    // A clean exit is a worker told to stop (Ctrl-C reaches the workers before the primary, too).
    if (!running || stopping || (code === 0 && !signal)) return;
    log.error({ pid: worker.process.pid, code, signal, role }, 'worker exited; starting a new one');
    fork(role);
  });

  const stop = async (exitCode: number) => {
    stopping = true;
    const alive = workers();
    const exited = Promise.all(alive.map((worker) => (worker.isDead() ? undefined : new Promise((resolve) => worker.once('exit', resolve)))));
    for (const worker of alive) worker.process.kill('SIGTERM');
    const timer = setTimeout(() => alive.forEach((worker) => worker.process.kill('SIGKILL')), drainMs(config));
    await exited;
    clearTimeout(timer);
    await embedded?.stop().catch((error) => log.error({ err: error }, 'stopping the embedded PostgreSQL failed'));
    process.exit(exitCode);
  };
  const shutdown = (signal: string) => {
    if (stopping) return;
    log.info({ signal }, 'shutting down workers');
    void stop(0);
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  try {
    await listening(fork('first'));
    await Promise.all(Array.from({ length: config.workers - 1 }, () => listening(fork('other'))));
  } catch (error) {
    // A signal during start-up is already stopping everything; otherwise a worker failed to start.
    if (stopping) return;
    log.error({ err: error }, 'start-up failed');
    await stop(1);
    return;
  }
  running = true;
  log.info({ workers: config.workers }, 'all workers listening');
}
