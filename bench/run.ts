// First: bench/lib/app.ts loads gateway/config.ts, which loads every subgraph's type-graphql
// resolvers, and their decorators need the metadata API installed before they run (as gateway/main.ts does).
import 'reflect-metadata';
import os from 'node:os';
import path from 'node:path';
import { benchAccess } from './access';
import { benchCapacity } from './capacity';
import { startApp } from './lib/app';
import type { BenchContext } from './lib/context';
import { openDatabase } from './lib/database';
import { say } from './lib/progress';
import { writeSection } from './lib/results-file';
import { Teardown } from './lib/teardown';
import { benchNoisyNeighbour } from './noisy-neighbour';
import { benchNotesMigrate } from './notes-migrate';
import { benchPeerGateway } from './peer-gateway';
import { benchPlumbing } from './plumbing';
import { benchRevenue } from './revenue';
import { benchTenantPublic } from './tenant-public';
import { benchTracing } from './tracing';
import { benchWebhooks } from './webhooks';

const RESULTS_FILE = path.resolve(__dirname, '..', '..', 'bench', 'RESULTS.md');
const RESULTS_HEADER = `# Benchmark results

The latest result of each benchmark, with its verdicts; how they were reached is in
[HISTORY.md](HISTORY.md). Written by \`npm run bench\` (bench/run.ts): each benchmark rewrites only
its own section, between its \`<!-- name:start -->\` and \`<!-- name:end -->\` markers.
`;

/** A benchmark: measures, records its section (unless smoke), and answers its Markdown and whether the run was valid. */
type Benchmark = (context: BenchContext) => Promise<{ markdown: string; valid: boolean }>;

const BENCHMARKS: Record<string, Benchmark> = {
  'tenant-public': benchTenantPublic,
  // Early: it counts all of the shared app's CPU, best read before later benchmarks (webhook deliveries, revenue's rollups) can leave it background work.
  access: benchAccess,
  'notes-migrate': benchNotesMigrate,
  webhooks: benchWebhooks,
  revenue: benchRevenue,
  tracing: benchTracing,
  'peer-gateway': benchPeerGateway,
  'noisy-neighbour': benchNoisyNeighbour,
  plumbing: benchPlumbing,
  capacity: benchCapacity,
};

function positiveInt(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number >= ${min} (got "${raw}")`);
  return value;
}

/**
 * `npm run bench`: starts the database and the platform once, runs the benchmarks, records
 * them in bench/RESULTS.md. Exits 1 when a run is invalid (non-2xx answers) or the set-up
 * fails; a missed target is a result, not a failure, and exits 0.
 *
 * `npm run bench:smoke` (`--smoke` or BENCH_SMOKE=1): every benchmark for a second or two on its
 * smallest data, in a database of its own (dropped after), recording nothing; a benchmark that
 * fails to start or to measure is reported and the others still run; exits 1 if any failed.
 */
async function main(): Promise<number> {
  const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
  const shape = { durationSeconds: positiveInt('BENCH_DURATION', smoke ? 1 : 10), connections: positiveInt('BENCH_CONNECTIONS', smoke ? 10 : 50) };
  const warmupSeconds = positiveInt('BENCH_WARMUP', smoke ? 0 : 5, 0);
  // BENCH_ONLY=notes-migrate (comma-separated names) runs a subset; all run by default.
  const only = (process.env.BENCH_ONLY ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = only.filter((name) => !(name in BENCHMARKS));
  if (unknown.length) throw new Error(`BENCH_ONLY names unknown benchmarks: ${unknown.join(', ')} (known: ${Object.keys(BENCHMARKS).join(', ')})`);
  const teardown = new Teardown();
  teardown.handleCrashes();
  try {
    say(process.env.DATABASE_URL ? `using ${smoke ? "a new database on DATABASE_URL's server" : 'DATABASE_URL'}` : 'starting an embedded PostgreSQL in a temp directory');
    const database = await openDatabase(smoke);
    teardown.add('database', () => database.stop());
    teardown.handleSignals();
    // One HTTP worker per core, as docs/operations.md recommends for production; BENCH_WORKERS=1 measures a single process.
    // The smoke run starts single processes: a third of the start-up time, and of the database connections.
    const workers = positiveInt('BENCH_WORKERS', smoke ? 1 : os.availableParallelism());
    say(`starting the app (all-in-one, ${workers} worker process${workers > 1 ? 'es' : ''})`);
    // http receivers on 127.0.0.1 are the webhook benchmark's endpoints. SPEED_PLUMBING is
    // -inflight-dedup unless set: the floors this app is judged against share no work, and
    // concurrent identical requests (tenant-public's, revenue's four loops) would otherwise share
    // one fetch; peer-gateway, which judges deduplication, starts servers of its own.
    const app = await startApp(database.url, workers, { ALLOW_HTTP_WEBHOOKS: '1', SPEED_PLUMBING: process.env.SPEED_PLUMBING || '-inflight-dedup' });
    teardown.add('app', () => app.child.stop());
    say(`app ready at ${app.url}`);

    const context: BenchContext = {
      app,
      databaseUrl: database.url,
      databaseLabel: database.source === 'embedded' ? 'embedded PostgreSQL (temp dir, same machine)' : 'DATABASE_URL',
      shape,
      warmupSeconds,
      teardown,
      smoke,
      record: (name, markdown) => (smoke ? undefined : writeSection(RESULTS_FILE, name, markdown, RESULTS_HEADER)),
    };
    const outcomes: string[] = [];
    for (const [name, bench] of Object.entries(BENCHMARKS)) {
      if (only.length && !only.includes(name)) continue;
      const began = Date.now();
      const took = () => `${((Date.now() - began) / 1000).toFixed(0)} s`;
      if (!smoke) {
        const report = await bench(context);
        process.stdout.write(`\n${report.markdown}\n\n`);
        say(`${name} took ${took()}`);
        if (!report.valid) outcomes.push(`${name}: invalid run`);
        continue;
      }
      // The smoke run carries on past a failure, so one run names every benchmark that broke.
      try {
        const report = await bench(context);
        say(`smoke: ${name} ${report.valid ? 'measured' : 'INVALID (some answers were not 2xx, or a measurement is missing)'} in ${took()}`);
        if (!report.valid) outcomes.push(`${name}: invalid run`);
      } catch (error) {
        const cause = error instanceof Error && error.cause ? `\ncaused by: ${error.cause instanceof Error ? (error.cause.stack ?? error.cause.message) : JSON.stringify(error.cause)}` : '';
        say(`smoke: ${name} FAILED after ${took()}: ${error instanceof Error ? (error.stack ?? error.message) : error}${cause}`);
        outcomes.push(`${name}: ${error instanceof Error ? error.message.split('\n')[0] : error}`);
      }
    }
    if (!smoke) say(`wrote ${path.relative(process.cwd(), RESULTS_FILE) || RESULTS_FILE}`);
    else say(outcomes.length ? `smoke run FAILED: ${outcomes.join('; ')}` : 'smoke run passed: every benchmark started and measured (nothing recorded)');
    return outcomes.length ? 1 : 0;
  } finally {
    say('stopping');
    await teardown.run();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.message : error}\n`);
    process.exit(1);
  },
);
