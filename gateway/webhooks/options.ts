import { ConfigError, intSetting } from '../config';
import type { DispatcherOptions } from './dispatcher';
import { parseSchedule } from './schedule';

/** Reads the dispatcher's settings from the environment, reporting every problem at once. */
export function loadDispatcherOptions(env: NodeJS.ProcessEnv = process.env): DispatcherOptions {
  const problems: string[] = [];
  const int = intSetting(env, problems);
  let schedule: number[] = [];
  try {
    schedule = parseSchedule(env.WEBHOOK_RETRY_SCHEDULE);
  } catch (error) {
    problems.push((error as Error).message);
  }
  const timeoutMs = int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000);
  const options: DispatcherOptions = {
    schedule,
    timeoutMs,
    // The lease only has to outlast one attempt (the timeout) and its bookkeeping.
    leaseSeconds: Math.ceil(timeoutMs / 1000) + 5,
    batchSize: int('WEBHOOK_BATCH_SIZE', 200, 1, 5_000),
    concurrency: int('WEBHOOK_CONCURRENCY', 32, 1, 1_000),
    pollMs: int('WEBHOOK_POLL_MS', 500, 10, 60_000),
    retentionDays: int('WEBHOOK_RETENTION_DAYS', 30, 1, 3_650),
  };
  if (problems.length) throw new ConfigError(problems);
  return options;
}
