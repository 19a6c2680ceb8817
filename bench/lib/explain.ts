import type { Client } from 'pg';

/** What a plan says about index use, for the results table. */
export interface PlanSummary {
  /** Scan nodes, e.g. `Index Only Scan using charge_items_tenant_created_idx_covering`, `Parallel Seq Scan on charge_items`. */
  scans: string[];
  executionMs: number;
  /** Shared buffers hit and read by the whole statement. */
  buffers: string;
  text: string;
}

/** Runs `EXPLAIN (ANALYZE, BUFFERS)` of a statement and picks out its scans. */
export async function explain(db: Client, sql: string, params: unknown[]): Promise<PlanSummary> {
  const { rows } = await db.query(`explain (analyze, buffers) ${sql}`, params);
  const text = rows.map((r) => r['QUERY PLAN'] as string).join('\n');
  const scans = [...new Set([...text.matchAll(/((?:Parallel )?(?:Index Only Scan|Index Scan|Bitmap Index Scan|Seq Scan)(?: Backward)? (?:using|on) \w+)/g)].map((m) => m[1]))];
  const execution = /Execution Time: ([\d.]+) ms/.exec(text);
  const buffers = /^\s*(?:->\s*)?\S.*\n\s*Buffers: ([^\n]+)/.exec(text)?.[1] ?? '';
  return { scans, executionMs: execution ? Number(execution[1]) : NaN, buffers, text };
}

/**
 * The same plan without some indexes: they are dropped inside a transaction that is rolled back,
 * so nothing changes (PostgreSQL's DDL is transactional). Shows what the indexes are worth.
 */
export async function explainWithout(db: Client, indexes: string[], sql: string, params: unknown[]): Promise<PlanSummary> {
  await db.query('begin');
  try {
    for (const index of indexes) await db.query(`drop index ${index}`);
    return await explain(db, sql, params);
  } finally {
    await db.query('rollback');
  }
}
