import { Client, Pool } from 'pg';
import { todayIn } from '../subgraphs/analytics/query/civil-time';
import { readAnalyticsSettings } from '../subgraphs/analytics/analytics-deps';
import { ROLLUP_SETTINGS } from '../subgraphs/analytics/query/read-only';
import { benchSetting, type BenchContext } from './lib/context';
import { explain } from './lib/explain';
import { describeMachine } from './lib/machine';
import { say } from './lib/progress';
import { describeProcesses } from './lib/process-tree';
import { buildRevenueReport, type Measured, type RevenueRun } from './lib/revenue-report';
import { seedRevenue } from './lib/revenue-seed';
import { HttpStatusError, revenueTargets, type RevenueTarget } from './lib/revenue-targets';
import { measureWrites } from './lib/revenue-writes';
import { createTenant } from './lib/tenant';
import { summarise } from './lib/timing';

const TIMEZONE = 'America/New_York';

/** The year measured: the 365 calendar days up to today in the zone. */
function lastYear(now: Date): { start: string; end: string } {
  const end = todayIn(TIMEZONE, now);
  const start = new Date(Date.parse(`${end}T00:00:00Z`) - 364 * 86_400_000).toISOString().slice(0, 10);
  return { start, end };
}

/** How many requests one side of a target makes: `workers` concurrent loops of `each` after the sequential ones (0: none). */
interface Shape {
  sequential: number;
  workers: number;
  each: number;
}

/** Warm-up, then sequential and concurrent timing of one side of a target. */
async function time(call: () => Promise<unknown>, shape: Shape): Promise<Measured> {
  const { once, refused } = counted(call);
  for (let i = 0; i < 3; i++) await once();
  refused.count = 0;
  const seq: number[] = [];
  for (let i = 0; i < shape.sequential; i++) seq.push(await once());
  const conc: number[] = [];
  await Promise.all(Array.from({ length: shape.each ? shape.workers : 0 }, async () => {
    for (let i = 0; i < shape.each; i++) conc.push(await once());
  }));
  return { sequential: summarise(seq), concurrent: conc.length ? summarise(conc) : null, refused: refused.count };
}

/**
 * App and floor of a target timed in turn, one request each, `count` times after a warm-up: two
 * sides within a few tens of percent must see the same machine (seconds-long statements on a
 * shared VM drift more than that between two blocks of samples).
 */
async function timeInTurn(app: () => Promise<unknown>, floor: () => Promise<unknown>, count: number): Promise<[Measured, Measured]> {
  const [a, f] = [counted(app), counted(floor)];
  for (let i = 0; i < 2; i++) {
    await a.once();
    await f.once();
  }
  a.refused.count = 0;
  const samples: [number[], number[]] = [[], []];
  for (let i = 0; i < count; i++) {
    samples[0].push(await a.once());
    samples[1].push(await f.once());
  }
  return [
    { sequential: summarise(samples[0]), concurrent: null, refused: a.refused.count },
    { sequential: summarise(samples[1]), concurrent: null, refused: 0 },
  ];
}

/** A first answer for the agreement check: a 422 (the statement timeout, when the machine is busy) is tried again, twice. */
async function retried<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof HttpStatusError && error.status === 422) || attempt === 3) throw error;
    }
  }
}

/** Times one call; a 422 ("query too expensive": the statement timeout) is counted and timed as an answer, any other failure stops. */
function counted(call: () => Promise<unknown>): { once: () => Promise<number>; refused: { count: number } } {
  const refused = { count: 0 };
  const once = async () => {
    const started = process.hrtime.bigint();
    try {
      await call();
    } catch (error) {
      if (!(error instanceof HttpStatusError && error.status === 422)) throw error;
      refused.count++;
    }
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  return { once, refused };
}

/**
 * Issue 21, part 3: 10,000,000 revenue lines for one tenant and 1,000,000 for each of nine others
 * (issue 5's benchmark, ten times larger), then each 4.3 endpoint and one execute-query over a
 * year through HTTP, answered from billing's hourly rollups, against the same figures computed
 * from the lines through `pg` (the raw-line floor); two requests only lines can answer, against
 * their own SQL; and the cost of the rollups on writes. Records everything in RESULTS.md.
 */
export async function benchRevenue(ctx: BenchContext): Promise<{ markdown: string; valid: boolean }> {
  const lines = benchSetting(ctx, 'BENCH_REVENUE_LINES', 10_000_000, 20_000);
  const otherLines = benchSetting(ctx, 'BENCH_REVENUE_OTHER_LINES', 1_000_000, 2_000);
  const workers = benchSetting(ctx, 'BENCH_REVENUE_WORKERS', 4, 2);
  const app: Shape = { sequential: benchSetting(ctx, 'BENCH_REVENUE_SEQUENTIAL', 20, 2), workers, each: benchSetting(ctx, 'BENCH_REVENUE_EACH', 10, 1) };
  // The floor reads every line of the year: fewer samples keep the run within its time budget.
  const floorShape: Shape = { sequential: benchSetting(ctx, 'BENCH_REVENUE_FLOOR_SEQUENTIAL', 10, 2), workers, each: benchSetting(ctx, 'BENCH_REVENUE_FLOOR_EACH', 3, 1) };
  // Requests only lines answer are timed one at a time, app and floor in turn: four at once run into the statement timeout at 10M lines (the problem rollups solve).
  const linesShape: Shape = { sequential: benchSetting(ctx, 'BENCH_REVENUE_LINES_SEQUENTIAL', 10, 2), workers, each: 0 };
  const writeRounds = benchSetting(ctx, 'BENCH_REVENUE_WRITE_ROUNDS', 4, 1);
  const writeEach = benchSetting(ctx, 'BENCH_REVENUE_WRITE_EACH', 50, 5);

  const tenants = [];
  for (let i = 0; i < 11; i++) tenants.push(await createTenant(ctx.app.url, ctx.app.operatorToken, `Revenue Bench ${i + 1}`));
  const [measured, writer, ...others] = tenants;
  say(`created 11 tenants; measuring ${measured.tenantId}`);
  const seed = await seedRevenue(ctx.databaseUrl, measured.tenantId, others.map((t) => t.tenantId), lines, otherLines, say);

  const pool = new Pool({ connectionString: ctx.databaseUrl, max: workers });
  const db = new Client({ connectionString: ctx.databaseUrl });
  await db.connect();
  ctx.teardown.add('revenue floor pool', async () => {
    await pool.end();
    await db.end();
  });
  const { rows: rollups } = await db.query<{ name: string; rows: string; measured: string }>(`
    select substr(c.relname, 16) as name, c.reltuples::bigint as rows from pg_class c
    where c.relnamespace = 'billing'::regnamespace and c.relname like 'revenue\\_rollup\\_%' and c.relkind = 'r' order by c.relname`);
  for (const rollup of rollups) {
    const { rows } = await db.query(`select count(*) as n from billing.revenue_hourly_${rollup.name} where tenant_id = $1`, [measured.tenantId]);
    rollup.measured = rows[0].n;
  }
  const year = lastYear(new Date());
  const targets = revenueTargets(ctx.app.url, measured, pool, year, TIMEZONE);

  const runs: RevenueRun[] = [];
  let valid = true;
  for (const target of targets) {
    const agrees = target.agrees(await retried(() => target.app()), await target.floor());
    if (!agrees) say(`${target.name}: the app and the floor DISAGREE`);
    valid &&= agrees;
    const [appTimes, floorTimes] = target.kind === 'lines'
      ? await timeInTurn(() => target.app(), () => target.floor(), linesShape.sequential)
      : [await time(() => target.app(), app), await time(() => target.floor(), floorShape)];
    const plans = [];
    for (const statement of target.appStatements) {
      // As the app runs them (read-only.ts), in a transaction rolled back.
      await db.query('begin');
      if (statement.small) await db.query(ROLLUP_SETTINGS);
      plans.push({ via: statement.via, plan: await explain(db, statement.sql, statement.params) });
      await db.query('rollback');
    }
    say(`${target.name}: app p50 ${appTimes.sequential.p50.toFixed(1)} ms, floor p50 ${floorTimes.sequential.p50.toFixed(1)} ms` +
      (appTimes.concurrent && floorTimes.concurrent ? ` (concurrent ${appTimes.concurrent.p50.toFixed(1)} / ${floorTimes.concurrent.p50.toFixed(1)}; ${appTimes.refused} refused)` : ''));
    runs.push({ target: target as Omit<RevenueTarget, 'app' | 'floor'>, app: appTimes, floor: floorTimes, plans, agrees });
  }
  say(`writes: ${writeRounds} rounds of ${writeEach} lines with the rollup trigger on and off`);
  const writes = await measureWrites(ctx.app.url, writer, db, writeRounds, writeEach);

  const report = buildRevenueReport(runs, writes, {
    date: new Date(),
    machine: describeMachine(),
    database: ctx.databaseLabel,
    processes: describeProcesses(ctx.app.workers),
    lines,
    otherLines,
    year,
    timezone: TIMEZONE,
    shapes: { app, floor: floorShape, lines: linesShape },
    statementTimeoutMs: readAnalyticsSettings(process.env).settings.statementTimeoutMs,
    dedup: ctx.app.dedup,
    seed,
    rollups: rollups.map((r) => ({ name: r.name, rows: Number(r.rows), measured: Number(r.measured) })),
  });
  ctx.record('revenue', report);
  return { markdown: report, valid };
}
