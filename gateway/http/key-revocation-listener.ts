import createSubscriber from 'pg-listen';
import type { Logger } from 'pino';
import { API_KEY_REVOKED_CHANNEL } from '../../subgraphs/tenant';

/** Longest pause between attempts to get the listening connection back. */
const MAX_RETRY_MS = 5_000;

/** A running listener; `close` ends its connection. */
export interface KeyRevocationListener {
  close(): Promise<void>;
}

/** Told the revoked key's id, or null after a (re)connect, when revocations may have been missed. */
export type OnRevoked = (keyId: string | null) => void;

/**
 * Calls `onRevoked` (the edge empties its key cache) whenever a revocation commits anywhere: the
 * admin CLI, another replica, another worker (ApiKeyService.revoke announces it with NOTIFY). The
 * connection is retried for as long as the process runs, and `onRevoked(null)` is called on every
 * (re)connect, because notifications sent while it was down are lost; meanwhile the cache's TTL
 * bounds how long a revoked key stays accepted, as it did before this listener existed.
 */
export async function listenForKeyRevocations(databaseUrl: string, onRevoked: OnRevoked, log: Logger): Promise<KeyRevocationListener> {
  const subscriber = createSubscriber(
    // Named per process, so pg_stat_activity tells which server (and worker) listens.
    { connectionString: databaseUrl, application_name: `hpp-key-revocations:${process.pid}` },
    {
      // Keep trying (pg-listen gives up after 3 s by default, and then never listens again).
      retryLimit: Infinity,
      retryTimeout: 0,
      retryInterval: (attempt) => Math.min(MAX_RETRY_MS, 250 * 2 ** attempt),
      paranoidChecking: 30_000,
      // The payload is a key id; nothing to parse, and a stray payload must not raise an error.
      parse: (payload) => payload,
    },
  );
  let lost = false;
  subscriber.notifications.on(API_KEY_REVOKED_CHANNEL, (keyId: unknown) => onRevoked(typeof keyId === 'string' ? keyId : null));
  subscriber.events.on('connected', () => {
    onRevoked(null);
    if (lost) log.info('key revocation listener reconnected; key cache emptied');
    lost = false;
  });
  subscriber.events.on('reconnect', (attempt) => {
    if (!lost) log.warn('key revocation listener lost its connection; reconnecting (meanwhile revocations made elsewhere take up to 10 s)');
    lost = true;
    if (attempt % 10 === 0) log.warn({ attempt }, 'key revocation listener still reconnecting');
  });
  subscriber.events.on('error', (error) => log.error({ err: error }, 'key revocation listener failed'));
  await subscriber.connect();
  await subscriber.listenTo(API_KEY_REVOKED_CHANNEL);
  return { close: () => subscriber.close() };
}
