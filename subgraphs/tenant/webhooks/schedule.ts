/** Delays between attempts (docs/webhooks.md): about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h. */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [5, 300, 1_800, 7_200, 18_000, 36_000, 86_400];

/**
 * When the next attempt is due after `attempts` failed ones, or null when the schedule is
 * exhausted. Full jitter on the last quarter of each step spreads a burst of retries out; a
 * `Retry-After` from the receiver wins when it asks for longer.
 */
export function nextAttemptDelayMs(attempts: number, schedule: number[], retryAfterSeconds: number | null, random = Math.random): number | null {
  if (attempts > schedule.length) return null;
  const base = schedule[attempts - 1] * 1000;
  const jittered = base * 0.75 + random() * base * 0.25;
  return Math.max(jittered, (retryAfterSeconds ?? 0) * 1000);
}

/** Parses `Retry-After` (seconds or an HTTP date); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

/** Reads a schedule like `1,2,4` (seconds) from configuration; tests use seconds, production the default. */
export function parseSchedule(text: string | undefined): number[] {
  if (!text) return DEFAULT_RETRY_SCHEDULE_SECONDS;
  const steps = text.split(',').map((s) => Number(s.trim()));
  if (steps.length === 0 || steps.some((s) => !Number.isFinite(s) || s < 0)) throw new Error(`WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds (got "${text}")`);
  return steps;
}
