import type { Logger } from 'pino';
import { dependencyOutage } from '../schema/dependency-outage';
import type { ErrorReporter } from './format-error';

/** While an outage lasts, its repeated errors are written once per this interval, with how many were held back. */
export const OUTAGE_LOG_INTERVAL_MS = 5_000;

/**
 * A warning for a dependency's outage that writes one line per OUTAGE_LOG_INTERVAL_MS: a database
 * restart under load fails hundreds of requests and pg-boss polls a second, and one line with a
 * count (`heldBack`) tells an operator as much as all of them.
 */
export function throttledOutageLog(log: Logger, message: string): (error: unknown, fields?: Record<string, unknown>) => void {
  let lastAt = -Infinity;
  let heldBack = 0;
  return (error, fields = {}) => {
    const now = Date.now();
    if (now - lastAt < OUTAGE_LOG_INTERVAL_MS) {
      heldBack++;
      return;
    }
    log.warn({ ...fields, err: error, ...(heldBack ? { heldBack } : {}) }, message);
    lastAt = now;
    heldBack = 0;
  };
}

/**
 * Logs a request's hidden cause: a dependency's outage (the client was told 503, retry) as a
 * throttled warning (`outage`, shared with the caller's other outage lines so one outage is one
 * line per interval), anything else as an error under `message`.
 */
export function requestErrorReporter(log: Logger, message: string, outage = throttledOutageLog(log, 'dependency unavailable')): ErrorReporter {
  return (error, requestId) => (dependencyOutage(error) ? outage(error, { requestId }) : log.error({ err: error, requestId }, message));
}

/** pg-boss's error handler: a lost database (pg-boss tries again by itself) as a throttled warning, anything else as an error. */
export function jobQueueErrorReporter(log: Logger): (error: unknown) => void {
  const outage = throttledOutageLog(log, 'job queue: database unavailable; pg-boss tries again');
  return (error) => (dependencyOutage(error) ? outage(error) : log.error({ err: error }, 'job queue error'));
}
