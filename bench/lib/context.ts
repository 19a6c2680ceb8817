import type { AppUnderTest } from './app';
import type { LoadShape } from './load';
import type { Teardown } from './teardown';

/** What a benchmark gets from run.ts: the running app, its database, the load shape, where to record. */
export interface BenchContext {
  app: AppUnderTest;
  databaseUrl: string;
  /** For the record, e.g. `embedded PostgreSQL (temp dir)`. */
  databaseLabel: string;
  shape: LoadShape;
  warmupSeconds: number;
  teardown: Teardown;
  /**
   * The smoke run (`npm run bench:smoke`): every benchmark starts and measures on its smallest
   * data and load, to show it still works; its figures mean nothing and nothing is recorded.
   */
  smoke: boolean;
  /** Writes the benchmark's section of bench/RESULTS.md (`name` is its marker); does nothing in a smoke run. */
  record(name: string, markdown: string): void;
}

/**
 * A whole-number setting of one benchmark: the environment variable when set, else the smoke
 * run's size or the full run's.
 */
export function benchSetting(ctx: Pick<BenchContext, 'smoke'>, name: string, full: number, smoke: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return ctx.smoke ? smoke : full;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number >= ${min} (got "${raw}")`);
  return value;
}
