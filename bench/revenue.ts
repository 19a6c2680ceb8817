import { Client, Pool } from 'pg';
import { todayIn } from '../subgraphs/analytics/query/civil-time';
import { QUERY_LIMITS } from '../subgraphs/analytics/query/limits';
import { explain, explainWithout } from './lib/explain';
import { describeMachine } from './lib/machine';
import { say } from './lib/progress';
import { writeSection } from './lib/results-file';
import { describeProcesses } from './lib/process-tree';
import { buildRevenueReport, type RevenueRun } from './lib/revenue-report';
import { seedRevenue } from './lib/revenue-seed';
import { revenueTargets, type RevenueTarget } from './lib/revenue-targets';
import { createTenant } from './lib/tenant';
import { concurrent, sequential } from './lib/timing';
import type { BenchContext } from './tenant-public';

const TIMEZONE = 'America/New_York';
const COVERING = ['billing.charge_items_tenant_created_idx_covering', 'billing.sold_packages_tenant_created_idx_covering'];

function setting(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number >= 1 (got "${raw}")`);
  return value;
}

/** The year measured: the 365 calendar days up to today in the zone. */
function lastYear(now: Date): { start: string; end: string } {
  const end = todayIn(TIMEZONE, now);
  const start = new Date(Date.parse(`${end}T00:00:00Z`) - 364 * 86_400_000).toISOString().slice(0, 10);
  return { start, end };
}

/** Warm-up, then sequential and concurrent timing of one side (app or floor) of a target. */
async function time(call: () => Promise<unknown>, shape: { sequential: number; workers: number; each: number }) {
  for (let i = 0; i < 3; i++) await call();
  const seq = await sequential(async () => void (await call()), shape.sequential);
  const conc = await concurrent(async () => void (await call()), shape.workers, shape.each);
  return { sequential: seq, concurrent: conc };
}

/**
 * Issue 5's performance check: 1,000,000 revenue lines for one tenant among ten, then each 4.3
 * endpoint and one execute-query over a year, through HTTP, against the same SQL through `pg`.
 * Records timings and the plans' index use (with and without the covering indexes) in RESULTS.md.
 */
export async function benchRevenue(ctx: BenchContext): Promise<{ markdown: string; valid: boolean }> {
  const lines = setting('BENCH_REVENUE_LINES', 1_000_000);
  const otherLines = setting('BENCH_REVENUE_OTHER_LINES', 100_000);
  const shape = { sequential: setting('BENCH_REVENUE_SEQUENTIAL', 20), workers: setting('BENCH_REVENUE_WORKERS', 4), each: setting('BENCH_REVENUE_EACH', 10) };

  const tenants = [];
  for (let i = 0; i < 10; i++) tenants.push(await createTenant(ctx.app.url, ctx.app.operatorToken, `Revenue Bench ${i + 1}`));
  const [measured, ...others] = tenants;
  say(`created 10 tenants; measuring ${measured.tenantId}`);
  await seedRevenue(ctx.databaseUrl, measured.tenantId, others.map((t) => t.tenantId), lines, otherLines, say);

  const pool = new Pool({ connectionString: ctx.databaseUrl, max: shape.workers });
  const db = new Client({ connectionString: ctx.databaseUrl });
  await db.connect();
  ctx.teardown.add('revenue floor pool', async () => {
    await pool.end();
    await db.end();
  });
  const year = lastYear(new Date());
  const targets = revenueTargets(ctx.app.url, measured, pool, year, TIMEZONE);

  const runs: RevenueRun[] = [];
  let valid = true;
  for (const target of targets) {
    const agrees = target.agrees(await target.app(), await target.floor());
    if (!agrees) say(`${target.name}: the app and the floor DISAGREE`);
    valid &&= agrees;
    const app = await time(() => target.app(), shape);
    const floor = await time(() => target.floor(), shape);
    const plans = [];
    for (const statement of target.statements) {
      plans.push({ with: await explain(db, statement.sql, statement.params), without: await explainWithout(db, COVERING, statement.sql, statement.params) });
    }
    say(`${target.name}: app p50 ${app.sequential.p50.toFixed(1)} ms, floor p50 ${floor.sequential.p50.toFixed(1)} ms (concurrent ${app.concurrent.p50.toFixed(1)} / ${floor.concurrent.p50.toFixed(1)})`);
    runs.push({ target: target as Omit<RevenueTarget, 'app' | 'floor'>, app, floor, plans, agrees });
  }

  const report = buildRevenueReport(runs, {
    date: new Date(),
    machine: describeMachine(),
    database: ctx.databaseLabel,
    processes: describeProcesses(ctx.app.workers),
    lines,
    otherLines,
    year,
    timezone: TIMEZONE,
    shape,
    statementTimeoutMs: QUERY_LIMITS.statementTimeoutMs,
  });
  writeSection(ctx.resultsFile, 'revenue', report, ctx.resultsHeader);
  return { markdown: report, valid };
}
