import type { Logger } from 'pino';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * A process's start-up as steps, each with its undo. A process manager may send SIGTERM at any
 * moment, start-up included (a deploy that gives up, a test that stops the server as soon as it
 * prints its URL): the step under way finishes, no later one starts, and what has started stops in
 * reverse order before the process exits. A step that fails stops the earlier ones too.
 */
export class Lifecycle {
  private readonly undo: Array<() => Promise<unknown>> = [];
  private current: Promise<unknown> = Promise.resolve();
  private stopping: Promise<void> | null = null;
  private readonly onSignal = (signal: string) => void this.stop(signal, 0);

  constructor(
    private readonly log: Logger,
    private readonly exit: (code: number) => void = (code) => process.exit(code),
  ) {
    for (const signal of SIGNALS) process.on(signal, this.onSignal);
  }

  /** Runs one start-up step and remembers its undo; once a stop is under way the returned promise never settles. */
  async step<T>(start: () => Promise<T>, undo: (value: T) => Promise<unknown> = async () => undefined): Promise<T> {
    if (this.stopping) return this.halted();
    const attempt = (async () => {
      const value = await start();
      this.undo.push(() => undo(value));
      return value;
    })();
    this.current = attempt.then(
      () => undefined,
      () => undefined,
    );
    try {
      const value = await attempt;
      if (this.stopping) return this.halted();
      return value;
    } catch (error) {
      if (this.stopping) return this.halted();
      await this.runUndo();
      throw error;
    }
  }

  /** Remembers an undo that has no start-up step of its own; like every undo, it runs in reverse order of registration. */
  onStop(undo: () => Promise<unknown>): void {
    this.undo.push(undo);
  }

  /** Stops listening for signals: the caller's own shutdown takes over from here. */
  release(): void {
    for (const signal of SIGNALS) process.off(signal, this.onSignal);
  }

  /** Stops everything started so far, in reverse order, then exits with `code` (1 when an undo fails). */
  stop(reason: string, code: number): Promise<void> {
    this.stopping ??= (async () => {
      this.log.info({ signal: reason }, 'shutting down');
      await this.current;
      const failed = await this.runUndo();
      this.exit(failed ? 1 : code);
    })();
    return this.stopping;
  }

  private async runUndo(): Promise<boolean> {
    let failed = false;
    for (const undo of this.undo.splice(0).reverse()) {
      try {
        await undo();
      } catch (error) {
        failed = true;
        this.log.error({ err: error }, 'shutdown failed');
      }
    }
    return failed;
  }

  private halted(): Promise<never> {
    return new Promise<never>(() => undefined);
  }
}
