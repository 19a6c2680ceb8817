/** How this process's job queue runs (docs/operations.md: configuration). */
export interface JobSettings {
  /** How often a supervising process looks for expired jobs (a crashed worker's) and queue counts. */
  superviseSeconds: number;
}

/** JOB_SUPERVISE_SECONDS when unset: a crashed worker's job runs again within its expiry plus this. */
export const DEFAULT_SUPERVISE_SECONDS = 5;

/** Reads JOB_SUPERVISE_SECONDS; shared by the gateway's configuration and every process that opens the queue. */
export function readJobSettings(env: NodeJS.ProcessEnv): { settings: JobSettings | null; problems: string[] } {
  const raw = env.JOB_SUPERVISE_SECONDS?.trim();
  const superviseSeconds = raw ? Number(raw) : DEFAULT_SUPERVISE_SECONDS;
  if (!Number.isInteger(superviseSeconds) || superviseSeconds < 1 || superviseSeconds > 3_600) {
    return { settings: null, problems: [`JOB_SUPERVISE_SECONDS must be a whole number from 1 to 3600 (got "${raw}")`] };
  }
  return { settings: { superviseSeconds }, problems: [] };
}
