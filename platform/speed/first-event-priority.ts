/** How long a stream that sent its first event may be held back for starting ones at most: longer than a burst of a hundred takes to start here (bench/RESULTS.md), short beside a whole migration. */
const DEFAULT_MAX_HOLD_MS = 250;

/**
 * Orders the work of concurrent event streams: streams that have not sent their first event go
 * before streams computing their later events. A client waits on the first event (issue 6
 * measures it); with a burst of streams starting together, computing every stream's remaining
 * events in between would push the last first events back by the whole burst's work. A stream
 * that sent its first event holds back until no stream is still starting, or `maxHoldMs` passed.
 */
export class FirstEventPriority {
  private starting = 0;
  private held: (() => void)[] = [];

  constructor(private readonly maxHoldMs = DEFAULT_MAX_HOLD_MS) {}

  /** Counts a stream as starting; call the returned function once its first event is out or it ended (extra calls are ignored). */
  start(): () => void {
    this.starting++;
    let counted = true;
    return () => {
      if (!counted) return;
      counted = false;
      if (--this.starting === 0) this.releaseHeld();
    };
  }

  /** Resolves when no stream is starting (at the earliest on the event loop's next turn) or after `maxHoldMs`. */
  async holdForStarters(): Promise<void> {
    if (this.starting === 0) return new Promise((resolve) => setImmediate(resolve));
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, this.maxHoldMs);
      this.held.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private releaseHeld(): void {
    const held = this.held;
    this.held = [];
    for (const release of held) release();
  }
}
