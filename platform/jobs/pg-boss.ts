import type * as PgBossModule from 'pg-boss' with { 'resolution-mode': 'import' };
import { importEsm } from '../import-esm';

/** The pg-boss module (ES module only), loaded once per process like any import. */
export type PgBossLib = typeof PgBossModule;

let loading: Promise<PgBossLib> | null = null;

/** Loads pg-boss with a real import() (docs/architecture.md, Stack notes). */
export function loadPgBoss(): Promise<PgBossLib> {
  loading ??= importEsm<PgBossLib>(require.resolve('pg-boss'));
  return loading;
}
