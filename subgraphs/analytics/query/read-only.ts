import type { EntityManager } from '@mikro-orm/postgresql';
import { ValidationError, type ValidationIssue } from '../../../schema/errors';
import type { IssueLoc } from '../../common/field-rules';
import { TIME_ZONE_REASON } from '../../common/time-zone';
import type { ReadConnection } from '../../../platform/replica/stale-read';

/** One statement: `$n` placeholders and their values. */
export interface Statement {
  sql: string;
  params: unknown[];
  /**
   * Set for statements that read few rows however large the tenant (rollups), which run with
   * `ROLLUP_SETTINGS`: PostgreSQL's JIT, triggered by their estimated cost, compiled for longer
   * (about 500 ms) than they ran; and their hour bounds are computed in the statement, so the
   * planner guesses how many rows a range holds and sometimes chose a bitmap heap scan over rollup
   * rows scattered in the heap (5x slower than the index-only scan their covering key allows).
   */
  small?: boolean;
}

/** Settings of `small` statements, for the rest of their transaction. */
export const ROLLUP_SETTINGS = 'set local jit = off; set local enable_bitmapscan = off';

/** Runs statements inside the read-only transaction; answers the rows. */
export type RunStatement = (statement: Statement) => Promise<Record<string, unknown>[]>;

/** Where to point a 422 when the database refuses the request as a whole. */
export interface RefusalTargets {
  /** The request (or its query) as a whole: "query too expensive". */
  request: { loc: IssueLoc; input: unknown };
  /** The time zone argument, should PostgreSQL not know a zone ICU accepted. */
  timezone: { loc: IssueLoc; input: unknown };
}

interface PgConnection {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

const valueIssue = (loc: IssueLoc, reason: string, input: unknown): ValidationIssue => ({ type: 'value_error', loc, msg: `Value error, ${reason}`, input, ctx: { error: reason } });

/** PostgreSQL's refusals that are the request's fault become 422s; anything else stays an internal error. */
function translate(error: unknown, targets: RefusalTargets, statementTimeoutMs: number): unknown {
  const pg = error as { code?: string; message?: string };
  if (pg?.code === '57014') {
    const reason = `query too expensive: it ran longer than ${statementTimeoutMs} ms; narrow the date range or add filters`;
    return new ValidationError([valueIssue(targets.request.loc, reason, targets.request.input)]);
  }
  if (pg?.code === '22023' && /time zone/i.test(pg.message ?? '')) {
    return new ValidationError([valueIssue(targets.timezone.loc, TIME_ZONE_REASON, targets.timezone.input)]);
  }
  return error;
}

/**
 * Runs `work` on one pooled connection inside `BEGIN READ ONLY` with `SET LOCAL
 * statement_timeout`: the limit ends with the transaction, so the pooled connection goes back
 * unchanged. Statements go to `pg` as written (`$n` placeholders, arrays as arrays); the ORM's
 * query layer would expand array bindings into lists. `connectionType`: MikroORM's `read` (the
 * replica, as staleRead chooses) or `write` (the primary).
 */
export async function runReadOnly<T>(em: EntityManager, targets: RefusalTargets, work: (run: RunStatement) => Promise<T>, statementTimeoutMs: number, connectionType: ReadConnection = 'write'): Promise<T> {
  const client = em.getKnex(connectionType).client;
  const connection = (await client.acquireConnection()) as PgConnection;
  try {
    // The timeout is configuration (a validated integer), never request input.
    await connection.query(`begin read only; set local statement_timeout = ${statementTimeoutMs}`);
    try {
      let jit = true;
      const result = await work(async (statement) => {
        if (statement.small && jit) {
          await connection.query(ROLLUP_SETTINGS);
          jit = false;
        }
        return (await connection.query(statement.sql, statement.params)).rows;
      });
      await connection.query('commit');
      return result;
    } catch (error) {
      await connection.query('rollback').catch(() => undefined);
      throw translate(error, targets, statementTimeoutMs);
    }
  } finally {
    await client.releaseConnection(connection);
  }
}
