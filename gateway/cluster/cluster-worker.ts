import cluster from 'node:cluster';

/** The environment variable through which the primary tells a worker its role. */
export const WORKER_ROLE_ENV = 'HPP_WORKER_ROLE';

/** `first` migrates, seeds the demo tenant and runs the background work; `other` only serves HTTP. */
export type WorkerRole = 'first' | 'other';

/** This process's role (its config's, set by the primary): a single process (no cluster) does everything, like a first worker. */
export function workerRole(config: { workerRole: WorkerRole }): WorkerRole {
  return cluster.isWorker && config.workerRole === 'other' ? 'other' : 'first';
}
