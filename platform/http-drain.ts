import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { liveList } from './speed/slot-list';

/** How long a shutdown waits by default for in-flight work (SHUTDOWN_GRACE_SECONDS). */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

/** SHUTDOWN_GRACE_SECONDS in ms (whole seconds, 0-600, default 10), read the same way by the gateway and every subgraph service; a bad value goes to `problems`. */
export function readShutdownGraceMs(env: NodeJS.ProcessEnv, problems: string[]): number {
  const raw = env.SHUTDOWN_GRACE_SECONDS;
  if (raw === undefined || raw === '') return DEFAULT_SHUTDOWN_GRACE_MS;
  const seconds = Number(raw);
  if (Number.isInteger(seconds) && seconds >= 0 && seconds <= 600) return seconds * 1000;
  problems.push(`SHUTDOWN_GRACE_SECONDS must be a whole number from 0 to 600 (got "${raw}")`);
  return DEFAULT_SHUTDOWN_GRACE_MS;
}

/** How often a drain looks again at what is still running. */
const POLL_MS = 25;

/** Stops a server: see `drainOnShutdown`. */
export type HttpDrain = (graceMs: number) => Promise<void>;

const isEventStream = (res: ServerResponse) => String(res.getHeader('content-type') ?? '').startsWith('text/event-stream');

/**
 * Tracks the server's in-flight requests so that a shutdown can drain them: stop accepting
 * connections, close idle keep-alive ones, answer what is in flight with `Connection: close`, cut
 * event streams at once (they never end on their own; clients reconnect elsewhere), give every
 * other request up to `graceMs` to finish, and only then cut the connections that are left.
 * `server.close()` alone waits for connections, not requests, and a fixed cut after it would end a
 * slow payment halfway.
 */
export function drainOnShutdown(server: Server, slotList = true): HttpDrain {
  // Not a Set: one add and one delete per request in a long-lived Set kept requests alive through scavenges (slot-list.ts).
  const inFlight = liveList<ServerResponse>(slotList);
  let draining = false;
  const closeAfterResponse = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  // Ahead of the application's listener, so a response it ends at once is still seen ending.
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    const slot = inFlight.add(res);
    res.once('close', () => inFlight.remove(slot));
    if (draining) closeAfterResponse(res);
  });

  return async (graceMs) => {
    draining = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const res of inFlight) closeAfterResponse(res);
    server.closeIdleConnections();
    const deadline = Date.now() + graceMs;
    for (;;) {
      // A stream may start after the drain began; it is cut on the next look.
      for (const res of inFlight) if (isEventStream(res)) res.destroy();
      if (inFlight.size === 0 || Date.now() >= deadline) break;
      await sleep(POLL_MS);
    }
    server.closeAllConnections();
    await closed;
  };
}

/**
 * Waits until `busy()` has been false on two looks in a row (work between two steps, such as a
 * resolver between its queries, is not mistaken for the end), or until `graceMs` have passed.
 * Answers whether it went quiet in time.
 */
export async function waitUntilIdle(busy: () => boolean, graceMs: number): Promise<boolean> {
  const deadline = Date.now() + graceMs;
  let quietLooks = 0;
  while (quietLooks < 2) {
    quietLooks = busy() ? 0 : quietLooks + 1;
    if (quietLooks === 2) break;
    if (Date.now() >= deadline) return false;
    await sleep(POLL_MS);
  }
  return true;
}
