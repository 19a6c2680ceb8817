/** How long `eventually` waits, and how often it looks. */
export interface EventuallyOptions {
  /** Default 20 s: long enough for a loaded CI machine, and still a failure rather than a hang. */
  timeoutMs?: number;
  /** Default 25 ms. */
  intervalMs?: number;
  /** Named in the error when time runs out. */
  what?: string;
}

/**
 * Polls `check` until it returns a truthy value, and returns that value; throws once `timeoutMs`
 * passes without one (with the last error `check` threw, if any). The one way tests wait for
 * something that happens in the background: no test sleeps a fixed time and hopes.
 */
export async function eventually<T>(check: () => T | Promise<T>, options: EventuallyOptions = {}): Promise<NonNullable<T>> {
  const { timeoutMs = 20_000, intervalMs = 25, what = 'condition' } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`, { cause: lastError });
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
