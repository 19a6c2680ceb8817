import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** Least time between two log lines about the same Redis trouble: an outage is one line every few seconds, not one per request. */
const LOG_EVERY_MS = 5_000;

/**
 * A Redis client whose every wait is bounded (docs/operations.md, Redis): a command not answered
 * within `timeoutMs` fails (`commandTimeout`), and the connection that did not answer is dropped
 * (`socketTimeout`) so that, until Redis answers a new connection's ready check, the client is not
 * `ready` and callers fall back at once instead of each waiting out the timeout (rate-limiter-
 * flexible's `rejectIfRedisNotReady`). Nothing queues while disconnected (`enableOfflineQueue`
 * false) and nothing is retried (`maxRetriesPerRequest` 0): a caller that needs an answer now has
 * a fallback. It reconnects by itself, every 0.2-2 s. Its errors go to `log` as JSON lines (at
 * most one every 5 s), never to stderr as ioredis's own `Unhandled error event` lines.
 */
export function openRedis(url: string, timeoutMs: number, log: Logger): Redis {
  const redis = new Redis(url, {
    commandTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    connectTimeout: Math.max(timeoutMs, 1_000),
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: (times) => Math.min(200 * times, 2_000),
  });
  let lastLogged = 0;
  let down = false;
  redis.on('error', (error: Error) => {
    const now = Date.now();
    if (now - lastLogged < LOG_EVERY_MS) return;
    lastLogged = now;
    down = true;
    log.warn({ err: { type: error.name, message: error.message, code: (error as { code?: unknown }).code } }, 'redis unavailable; rate limits count in this process until it answers');
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    lastLogged = 0;
    log.info('redis answers again; rate limits are shared again');
  });
  return redis;
}
