import { randomUUID } from 'node:crypto';
import cluster, { type Worker } from 'node:cluster';

// Worker -> primary: "keys were revoked here"; primary -> every other worker: "forget yours and confirm".
const KEYS_CHANGED = 'hpp:api-keys-changed';
// Worker -> primary: "forgotten"; primary -> the announcing worker: "every worker has forgotten".
const KEYS_CLEARED = 'hpp:api-keys-cleared';

interface RelayMessage {
  channel: typeof KEYS_CHANGED | typeof KEYS_CLEARED;
  id: string;
}

const isRelayMessage = (message: unknown, channel: RelayMessage['channel']): message is RelayMessage =>
  (message as Partial<RelayMessage> | null)?.channel === channel && typeof (message as Partial<RelayMessage>).id === 'string';

/** How long a revocation waits for the other workers' confirmations; a worker that hangs must not hang the operator's request. */
const CONFIRM_TIMEOUT_MS = 2_000;

/** A worker's end of the relay of API key revocations. */
export interface KeyRevocationRelay {
  /** Tells every other worker (through the primary) to forget its cached keys; resolves once all have confirmed. */
  announce(): Promise<void>;
  stop(): void;
}

/**
 * Joins this worker to the relay: `clear` empties its key cache whenever another worker revokes a
 * key. A revocation is answered only after every worker confirmed, so a revoked key is refused by
 * whichever worker the client's next request reaches.
 */
export function relayKeyRevocations(clear: () => void): KeyRevocationRelay {
  const waiting = new Map<string, () => void>();
  const listener = (message: unknown) => {
    if (isRelayMessage(message, KEYS_CHANGED)) {
      clear();
      process.send?.({ channel: KEYS_CLEARED, id: message.id } satisfies RelayMessage);
    } else if (isRelayMessage(message, KEYS_CLEARED)) {
      waiting.get(message.id)?.();
    }
  };
  process.on('message', listener);
  return {
    announce: () =>
      new Promise<void>((resolve) => {
        const id = randomUUID();
        const done = () => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve();
        };
        const timer = setTimeout(done, CONFIRM_TIMEOUT_MS).unref();
        waiting.set(id, done);
        process.send?.({ channel: KEYS_CHANGED, id } satisfies RelayMessage);
      }),
    stop: () => void process.off('message', listener),
  };
}

/** The primary's end: passes a revocation on to every other worker and confirms to the announcer once all have cleared. */
export function serveKeyRevocationRelay(workers: () => Worker[]): void {
  const pending = new Map<string, { announcer: Worker; left: Set<number> }>();
  const settle = (id: string) => {
    const wait = pending.get(id);
    if (!wait || wait.left.size > 0) return;
    pending.delete(id);
    if (!wait.announcer.isDead()) wait.announcer.send({ channel: KEYS_CLEARED, id } satisfies RelayMessage);
  };
  cluster.on('message', (from, message) => {
    if (isRelayMessage(message, KEYS_CHANGED)) {
      const others = workers().filter((worker) => worker !== from && !worker.isDead());
      pending.set(message.id, { announcer: from, left: new Set(others.map((worker) => worker.id)) });
      for (const worker of others) worker.send({ channel: KEYS_CHANGED, id: message.id } satisfies RelayMessage);
      settle(message.id);
    } else if (isRelayMessage(message, KEYS_CLEARED)) {
      pending.get(message.id)?.left.delete(from.id);
      settle(message.id);
    }
  });
  // A worker that dies has nothing cached any more: stop waiting for it.
  cluster.on('exit', (worker) => {
    for (const [id, wait] of pending) {
      wait.left.delete(worker.id);
      settle(id);
    }
  });
}
