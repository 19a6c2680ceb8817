import cluster from 'node:cluster';

/** The environment variable through which the primary tells a worker its role. */
export const WORKER_ROLE_ENV = 'HPP_WORKER_ROLE';

/** `first` migrates, seeds the demo tenant and runs the background work; `other` only serves HTTP. */
export type WorkerRole = 'first' | 'other';

/** This process's role: a single process (no cluster) does everything, like a first worker. */
export function workerRole(): WorkerRole {
  return cluster.isWorker && process.env[WORKER_ROLE_ENV] === 'other' ? 'other' : 'first';
}
