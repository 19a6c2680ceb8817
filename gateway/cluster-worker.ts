import cluster from 'node:cluster';

/** The environment variable through which the primary tells a worker its role. */
export const WORKER_ROLE_ENV = 'HPP_WORKER_ROLE';

/** `first` migrates, seeds the demo tenant and runs the background work; `other` only serves HTTP. */
export type WorkerRole = 'first' | 'other';

/** This process's role: a single process (no cluster) does everything, like a first worker. */
export function workerRole(): WorkerRole {
  return cluster.isWorker && process.env[WORKER_ROLE_ENV] === 'other' ? 'other' : 'first';
}

const KEYS_CHANGED = 'hpp:api-keys-changed';

/** Whether an IPC message is a worker's notice that API keys were revoked. */
export const isKeysChangedMessage = (message: unknown): boolean => (message as { channel?: unknown } | null)?.channel === KEYS_CHANGED;

/** Relays API key revocations between workers, so every worker's key cache forgets at once. */
export interface KeyRevocationRelay {
  /** Tells the other workers (through the primary) that keys changed here. */
  announce(): void;
  stop(): void;
}

/** Clears this worker's cache (`clear`) whenever another worker announces a revocation. */
export function relayKeyRevocations(clear: () => void): KeyRevocationRelay {
  const listener = (message: unknown) => {
    if (isKeysChangedMessage(message)) clear();
  };
  process.on('message', listener);
  return {
    announce: () => void process.send?.({ channel: KEYS_CHANGED }),
    stop: () => void process.off('message', listener),
  };
}
