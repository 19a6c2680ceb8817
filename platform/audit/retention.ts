import type { Logger } from 'pino';
import type { Execute } from './audit-store';

/** Six years, HIPAA's retention of its required documentation (45 CFR 164.316(b)(2)). */
export const DEFAULT_RETENTION_DAYS = 2192;
/** The least `audit.purge` keeps, whatever it is asked. */
export const MIN_RETENTION_DAYS = 365;

const DAY_MS = 86_400_000;

/** Removes records older than the retention once at start and then daily (`audit.purge`: the chain keeps an anchor); stop() ends it. */
export function startAuditRetention(execute: Execute, retentionDays: number, log: Logger): { stop(): void } {
  const purge = async () => {
    const cutoff = new Date(Date.now() - retentionDays * DAY_MS);
    const [row] = (await execute('select "audit"."purge"(?) as removed', [cutoff])) as { removed: string }[];
    if (Number(row?.removed) > 0) log.info({ removed: Number(row.removed), cutoff }, 'audit records past their retention removed');
  };
  const run = () => void purge().catch((error) => log.warn({ err: error }, 'audit retention purge failed; trying again tomorrow'));
  const first = setTimeout(run, 60_000).unref();
  const daily = setInterval(run, DAY_MS).unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(daily);
    },
  };
}
