import fc from 'fast-check';
import { REQUEST_TIMEOUT_MS } from './abuse-http';

/** The suite's seed: fixed so a failure replays, overridable to explore (`ABUSE_SEED=123 npx jest test/abuse`). */
export const SEED = Number(process.env.ABUSE_SEED ?? 20261125);

/** Random cases per operation and category, on top of the fixed examples (`ABUSE_RUNS`, default 5). */
export const RUNS = Number(process.env.ABUSE_RUNS ?? 5);

/** A seed per property derived from the suite's, so operations do not all draw the same values. */
export function seedFor(label: string): number {
  let hash = SEED | 0;
  for (const char of label) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

/** The first line of a failure, for telling kinds apart (same broken rule, same operation). */
const kindOf = (message: string) => message.split('\n')[0].replace(/\d+/g, '#');

/**
 * Runs `check` on each fixed example (every distinct failure is kept, so one hole does not hide
 * another), then on `RUNS` generated values (stopping at the first failure, without shrinking:
 * every case is already printed whole and small). Answers the failures, each with the request
 * that broke the rule and how to replay it.
 */
export async function runProperty<T>(label: string, arb: fc.Arbitrary<T>, examples: T[], check: (value: T) => Promise<void>): Promise<string[]> {
  const failures = new Map<string, string>();
  for (const example of examples) {
    try {
      await check(example);
    } catch (error) {
      const message = (error as Error).message;
      if (!failures.has(kindOf(message))) failures.set(kindOf(message), `${label}: ${message}\n  (a fixed example of the suite)`);
      if (message.includes('no HTTP answer')) return [...failures.values()];
    }
  }
  const seed = seedFor(label);
  try {
    await fc.assert(
      fc.asyncProperty(arb, async (value) => {
        await check(value);
      }),
      { seed, numRuns: RUNS, endOnFailure: true },
    );
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    const message = cause instanceof Error ? cause.message : String((error as Error).message).split('\n').slice(0, 6).join('\n');
    const path = /path: "([^"]*)"/.exec(String((error as Error).message))?.[1];
    if (!failures.has(kindOf(message))) {
      failures.set(kindOf(message), `${label}: ${message}\n  replay: fast-check seed ${seed}${path ? ` path "${path}"` : ''} (ABUSE_SEED=${SEED}, ABUSE_RUNS=${RUNS})`);
    }
  }
  return [...failures.values()];
}

/** Whether the server still answers its liveness probe: after a request that got no answer, the rest would only repeat it. */
export async function serverAlive(base: string): Promise<boolean> {
  try {
    const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(Math.min(5_000, REQUEST_TIMEOUT_MS)) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

/** Turns collected failures into one test failure listing them all. */
export function reportFailures(what: string, failures: string[]): void {
  if (failures.length > 0) throw new Error(`${failures.length} ${what} broke the abuse rules:\n\n${failures.join('\n\n')}`);
}
