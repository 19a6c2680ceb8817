import { DriverException } from '@mikro-orm/core';

/** Stack frames without the first line, which repeats the message (and so whatever the message holds). */
const frames = (error: Error): string | undefined => error.stack?.split('\n').slice(1).join('\n');

/**
 * What of an error may reach a log line. Database errors carry the failing SQL statement with its
 * values inlined (MikroORM) or the offending values in `detail` (pg): patients' and payment data.
 * For those only the kind, the SQLSTATE code, and the table or constraint are kept.
 */
export function loggableError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const pg = error as Error & { code?: string; table?: string; constraint?: string; routine?: string; severity?: string };
  if (error instanceof DriverException || (typeof pg.code === 'string' && /^[0-9A-Z]{5}$/.test(pg.code) && pg.severity)) {
    const cause = (error as { cause?: typeof pg }).cause ?? pg;
    return {
      type: error.name,
      sqlState: (error as DriverException).sqlState ?? cause.code ?? pg.code,
      table: cause.table ?? pg.table,
      constraint: cause.constraint ?? pg.constraint,
      stack: frames(error),
    };
  }
  return { type: error.name, message: error.message, stack: frames(error) };
}
