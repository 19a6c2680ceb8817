import { randomUUID } from 'node:crypto';
import cluster, { type Worker } from 'node:cluster';

// Worker -> primary: "my key cache exists; wait for me" / "I am stopping; stop waiting for me".
const JOIN = 'hpp:api-keys-join';
const LEAVE = 'hpp:api-keys-leave';
// Worker -> primary: "keys were revoked here"; primary -> every other joined worker: "forget yours and confirm".
const KEYS_CHANGED = 'hpp:api-keys-changed';
// Worker -> primary: "forgotten"; primary -> the announcing worker: "every worker has forgotten".
const KEYS_CLEARED = 'hpp:api-keys-cleared';

type Channel = typeof JOIN | typeof LEAVE | typeof KEYS_CHANGED | typeof KEYS_CLEARED;

interface RelayMessage {
  channel: Channel;
  id: string;
}

const isRelayMessage = (message: unknown, channel: Channel): message is RelayMessage =>
  (message as Partial<RelayMessage> | null)?.channel === channel && typeof (message as Partial<RelayMessage>).id === 'string';

/** How long a revocation waits for the other workers' confirmations; a worker that hangs must not hang the operator's request. */
export const CONFIRM_TIMEOUT_MS = 2_000;

/** How an announcement ended: every joined worker confirmed, or not (the wait gave up after CONFIRM_TIMEOUT_MS, or the primary is gone). */
export type AnnounceOutcome = 'confirmed' | 'unconfirmed';

/** A worker's end of the relay of API key revocations. */
export interface KeyRevocationRelay {
  /** Tells every other worker (through the primary) to forget its cached keys; resolves once all have confirmed or the wait timed out. */
  announce(): Promise<AnnounceOutcome>;
  /** Leaves the relay: the primary stops waiting for this worker. */
  stop(): void;
}

/**
 * Joins this worker to the relay: `clear` empties its key cache whenever another worker revokes a
 * key. A revocation is answered only after every joined worker confirmed (or CONFIRM_TIMEOUT_MS
 * passed), so a revoked key is refused by whichever worker the client's next request reaches.
 * Call it before the worker listens: the join then reaches the primary before any connection does.
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
  process.send?.({ channel: JOIN, id: String(process.pid) } satisfies RelayMessage);
  return {
    announce: () =>
      new Promise<AnnounceOutcome>((resolve) => {
        const id = randomUUID();
        const settle = (outcome: AnnounceOutcome) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(outcome);
        };
        const timer = setTimeout(() => settle('unconfirmed'), CONFIRM_TIMEOUT_MS).unref();
        waiting.set(id, () => settle('confirmed'));
        // Outside a cluster there is nobody else to tell.
        if (!process.send) return settle('confirmed');
        process.send({ channel: KEYS_CHANGED, id } satisfies RelayMessage, (error: Error | null) => error && settle('unconfirmed'));
      }),
    stop: () => {
      process.off('message', listener);
      if (process.connected) process.send?.({ channel: LEAVE, id: String(process.pid) } satisfies RelayMessage);
    },
  };
}

/** The primary's end: passes a revocation on to every other joined worker and confirms to the announcer once all have cleared. */
export function serveKeyRevocationRelay(): void {
  const joined = new Map<number, Worker>();
  const pending = new Map<string, { announcer: Worker; left: Set<number>; expiry: NodeJS.Timeout }>();
  const settle = (id: string) => {
    const wait = pending.get(id);
    if (!wait || wait.left.size > 0) return;
    pending.delete(id);
    clearTimeout(wait.expiry);
    if (wait.announcer.isConnected()) wait.announcer.send({ channel: KEYS_CLEARED, id } satisfies RelayMessage, () => undefined);
  };
  const forget = (worker: Worker) => {
    joined.delete(worker.id);
    for (const [id, wait] of pending) {
      wait.left.delete(worker.id);
      settle(id);
    }
  };
  cluster.on('message', (from, message) => {
    if (isRelayMessage(message, JOIN)) {
      joined.set(from.id, from);
    } else if (isRelayMessage(message, LEAVE)) {
      forget(from);
    } else if (isRelayMessage(message, KEYS_CHANGED)) {
      const others = [...joined.values()].filter((worker) => worker !== from && worker.isConnected());
      // The announcer gives up by itself after CONFIRM_TIMEOUT_MS; the entry must not outlive that.
      const expiry = setTimeout(() => pending.delete(message.id), CONFIRM_TIMEOUT_MS).unref();
      pending.set(message.id, { announcer: from, left: new Set(others.map((worker) => worker.id)), expiry });
      for (const worker of others) {
        // A channel that closes between the check and the send reports here, not as an 'error' that would crash the primary.
        worker.send({ channel: KEYS_CHANGED, id: message.id } satisfies RelayMessage, (error) => {
          if (error) forget(worker);
        });
      }
      settle(message.id);
    } else if (isRelayMessage(message, KEYS_CLEARED)) {
      pending.get(message.id)?.left.delete(from.id);
      settle(message.id);
    }
  });
  // A worker that died or lost its channel has nothing cached any more: stop waiting for it.
  cluster.on('disconnect', forget);
  cluster.on('exit', forget);
}
