import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { buildCapacityReport, type RouteCost } from './capacity-report';
import { benchSetting, type BenchContext } from './lib/context';
import { combineLoads, isClean, runLoad, type LoadSummary, type LoadTarget } from './lib/load';
import { describeMachine } from './lib/machine';
import { clusterRssMiB, treeCpuMs } from './lib/process-tree';
import { say } from './lib/progress';
import { createTenant, type BenchTenant } from './lib/tenant';

/**
 * How long after a load the database's statistics are read: a backend reports its active time at
 * most once a second while busy and 10 s after it goes idle (PostgreSQL's PGSTAT_IDLE_INTERVAL), and
 * a pool's connections go idle when the load stops.
 */
const STATS_FLUSH_MS = 11_000;

/** The routes the capacity model is built from: a small read, a list, a PHI read (audited), a write. */
function routes(url: string, tenant: BenchTenant, patientId: string): LoadTarget[] {
  const json = { ...tenant.headers, 'content-type': 'application/json' };
  return [
    { name: 'GET /tenant/public', url: `${url}/tenant/public`, headers: tenant.headers },
    { name: 'GET /analytics/dashboards (20 of 40)', url: `${url}/analytics/dashboards?per_page=20`, headers: tenant.headers },
    {
      name: 'POST /graphql patient(id) (audited PHI read)',
      url: `${url}/graphql`,
      method: 'POST',
      headers: json,
      body: JSON.stringify({ query: 'query($id: ID!) { patient(id: $id) { id firstName lastName } }', variables: { id: patientId } }),
    },
    { name: 'POST /analytics/dashboards (a write)', url: `${url}/analytics/dashboards`, method: 'POST', headers: json, body: JSON.stringify({ name: 'Capacity' }) },
  ];
}

/** The database's statements' busy time so far (ms), its client connections now, and its server's process (this backend's parent). */
async function databaseStats(databaseUrl: string): Promise<{ activeMs: number; connections: number; postmaster: number }> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select (select active_time from pg_stat_database where datname = current_database()) as active,
              (select count(*) from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()) as connections,
              pg_backend_pid() as backend`,
    );
    return { activeMs: Number(rows[0].active), connections: Number(rows[0].connections), postmaster: parentOf(Number(rows[0].backend)) };
  } finally {
    await client.end();
  }
}

/**
 * Issue 36, "Capacity on paper": what one request of each kind costs the app (server CPU) and the
 * database (time its backends spent executing statements, pg_stat_database.active_time), the
 * connections the app holds under load and the memory per worker: the figures docs/scaling.md's
 * model multiplies out. Rounds alternate the routes' order; each route's figures are summed over
 * its rounds.
 */
export async function benchCapacity(ctx: BenchContext): Promise<{ valid: boolean; markdown: string }> {
  const rounds = benchSetting(ctx, 'BENCH_CAPACITY_ROUNDS', 2, 1);
  const seconds = ctx.smoke ? 1 : ctx.shape.durationSeconds;
  const tenant = await createTenant(ctx.app.url, ctx.app.operatorToken, 'Capacity Bench Clinic');
  const patientId = await createPatient(ctx.app.url, tenant);
  for (let i = 0; i < 40; i++) await post(`${ctx.app.url}/analytics/dashboards`, tenant, { name: `Seed ${i}` });
  const targets = routes(ctx.app.url, tenant, patientId);
  if (ctx.warmupSeconds > 0) for (const target of targets) await runLoad(target, { ...ctx.shape, durationSeconds: ctx.warmupSeconds });
  const pid = ctx.app.child.process.pid!;
  const parts = new Map<string, { loads: LoadSummary[]; cpuMs: number; dbMs: number; dbCpuMs: number; connections: number }>(targets.map((t) => [t.name, { loads: [], cpuMs: 0, dbMs: 0, dbCpuMs: 0, connections: 0 }]));
  // The database server's own CPU (every backend and background process), when it runs on this machine.
  const postmaster = (await databaseStats(ctx.databaseUrl)).postmaster;
  const databaseCpuMs = () => (Number.isNaN(postmaster) ? Number.NaN : treeCpuMs(postmaster));
  const flushMs = ctx.smoke ? 1_000 : STATS_FLUSH_MS;
  await sleep(flushMs);
  for (let round = 0; round < rounds; round++) {
    for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
      const part = parts.get(target.name)!;
      const before = { cpu: treeCpuMs(pid), db: await databaseStats(ctx.databaseUrl), dbCpu: databaseCpuMs() };
      // The connections are counted while the load runs, half-way through.
      const during = sleep((seconds * 1_000) / 2).then(() => databaseStats(ctx.databaseUrl));
      part.loads.push(await runLoad(target, { ...ctx.shape, durationSeconds: seconds }));
      part.cpuMs += treeCpuMs(pid) - before.cpu;
      part.dbCpuMs += databaseCpuMs() - before.dbCpu;
      part.connections = Math.max(part.connections, (await during).connections);
      await sleep(flushMs);
      part.dbMs += (await databaseStats(ctx.databaseUrl)).activeMs - before.db.activeMs;
      say(`capacity: ${target.name} round ${round + 1}/${rounds}`);
    }
  }
  const costs: RouteCost[] = targets.map((target) => {
    const part = parts.get(target.name)!;
    const load = combineLoads(part.loads);
    return { route: target.name, load, cpuMsPerRequest: part.cpuMs / load.sent, dbMsPerRequest: part.dbMs / load.sent, dbCpuMsPerRequest: part.dbCpuMs / load.sent, connections: part.connections };
  });
  const rss = clusterRssMiB(pid);
  const markdown = buildCapacityReport({ costs, rss, workers: ctx.app.workers, machine: describeMachine(), database: ctx.databaseLabel, shape: { ...ctx.shape, durationSeconds: seconds }, rounds });
  ctx.record('capacity', markdown);
  return { valid: costs.every((cost) => isClean(cost.load)), markdown };
}

/** The parent of a process (Linux /proc); NaN when it cannot be read, e.g. a database on another machine. */
function parentOf(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
  } catch {
    return Number.NaN;
  }
}

async function post(url: string, tenant: BenchTenant, body: unknown): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`POST ${url}: ${res.status} ${text}`);
  return JSON.parse(text);
}

async function createPatient(url: string, tenant: BenchTenant): Promise<string> {
  const answer = await post(`${url}/graphql`, tenant, { query: 'mutation($i: CreatePatientInput!) { createPatient(input: $i) { id } }', variables: { i: { firstName: 'Cap', lastName: 'Acity', email: 'cap@example.com' } } });
  return answer.data.createPatient.id;
}
