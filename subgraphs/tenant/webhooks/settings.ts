import { parseSchedule } from './schedule';

/** How this process delivers webhooks (docs/webhooks.md lists the variables). */
export interface WebhookSettings {
  /** Seconds before each retry. */
  schedule: number[];
  /** Per attempt. */
  timeoutMs: number;
  /** How long a claimed delivery (and its job) stays ours; longer than timeoutMs, so a live attempt is never doubled. */
  leaseSeconds: number;
  /** Events turned into deliveries per transaction. */
  batchSize: number;
  /** Deliveries attempted at once by this process. */
  concurrency: number;
  /** Deliveries to one endpoint in flight at once, across all processes: its share of the slots. */
  endpointConcurrency: number;
  /** Consecutive failed attempts that open an endpoint's circuit breaker. */
  breakerFailures: number;
  /** How long an open breaker defers the endpoint's deliveries before one probe is let through. */
  breakerCooldownSeconds: number;
  /** The platform disables an endpoint whose run of failures is at least this many attempts long... */
  disableAfterFailures: number;
  /** ...and has lasted at least this many hours (0: the count alone decides). */
  disableAfterHours: number;
  /** Backstop poll while idle; a new job wakes the workers at once. */
  pollMs: number;
  /**
   * WEBHOOK_BURST (on unless `0`): a worker that found a delivery fetches the next at once while
   * the queue has a backlog, instead of after a poll interval: one endpoint's share of 4 workers
   * delivered ~9 events a second without it, ~300 with it (bench/RESULTS.md, webhooks).
   */
  burst: boolean;
  /** Delivered events are kept this long for `webhookDeliveries`, then pruned. */
  retentionDays: number;
  /**
   * ALLOW_HTTP_WEBHOOKS=1, for local development and tests only: plain-http and internal
   * endpoints are accepted when saved and connected to when delivered.
   */
  allowInternal: boolean;
}

/**
 * Reads WEBHOOK_RETRY_SCHEDULE, WEBHOOK_TIMEOUT_MS, WEBHOOK_BATCH_SIZE, WEBHOOK_CONCURRENCY,
 * WEBHOOK_ENDPOINT_CONCURRENCY, WEBHOOK_BREAKER_FAILURES, WEBHOOK_BREAKER_COOLDOWN_SECONDS,
 * WEBHOOK_DISABLE_AFTER_FAILURES, WEBHOOK_DISABLE_AFTER_HOURS, WEBHOOK_POLL_MS,
 * WEBHOOK_RETENTION_DAYS and ALLOW_HTTP_WEBHOOKS, reporting every problem at once:
 * the tenant subgraph's settings (its definition's `readSettings`).
 */
export function readWebhookSettings(env: Readonly<Record<string, string | undefined>>): { settings: WebhookSettings | null; problems: string[] } {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (Number.isInteger(value) && value >= min && value <= max) return value;
    problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
    return fallback;
  };
  let schedule: number[] = [];
  try {
    schedule = parseSchedule(env.WEBHOOK_RETRY_SCHEDULE);
  } catch (error) {
    problems.push((error as Error).message);
  }
  const timeoutMs = int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000);
  const settings: WebhookSettings = {
    schedule,
    timeoutMs,
    // The lease only has to outlast one attempt (the timeout) and its bookkeeping.
    leaseSeconds: Math.ceil(timeoutMs / 1000) + 5,
    batchSize: int('WEBHOOK_BATCH_SIZE', 200, 1, 5_000),
    concurrency: int('WEBHOOK_CONCURRENCY', 32, 1, 1_000),
    endpointConcurrency: int('WEBHOOK_ENDPOINT_CONCURRENCY', 4, 1, 1_000),
    breakerFailures: int('WEBHOOK_BREAKER_FAILURES', 5, 1, 1_000),
    breakerCooldownSeconds: int('WEBHOOK_BREAKER_COOLDOWN_SECONDS', 60, 1, 86_400),
    disableAfterFailures: int('WEBHOOK_DISABLE_AFTER_FAILURES', 20, 1, 100_000),
    disableAfterHours: int('WEBHOOK_DISABLE_AFTER_HOURS', 24, 0, 8_760),
    pollMs: int('WEBHOOK_POLL_MS', 500, 10, 60_000),
    burst: env.WEBHOOK_BURST !== '0',
    retentionDays: int('WEBHOOK_RETENTION_DAYS', 30, 1, 3_650),
    allowInternal: env.ALLOW_HTTP_WEBHOOKS === '1',
  };
  return { settings: problems.length ? null : settings, problems };
}
