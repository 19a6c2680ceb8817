// First: bench/lib/app.ts loads gateway/config.ts, which loads every subgraph's type-graphql
// resolvers, and their decorators need the metadata API installed before they run (as gateway/main.ts does).
import 'reflect-metadata';
import os from 'node:os';
import path from 'node:path';
import { startApp } from './lib/app';
import { openDatabase } from './lib/database';
import { say } from './lib/progress';
import { Teardown } from './lib/teardown';
import { benchNoisyNeighbour } from './noisy-neighbour';
import { benchNotesMigrate } from './notes-migrate';
import { benchPeerGateway } from './peer-gateway';
import { benchPlumbing } from './plumbing';
import { benchRevenue } from './revenue';
import { benchTenantPublic, type BenchContext } from './tenant-public';
import { benchTracing } from './tracing';
import { benchWebhooks } from './webhooks';

const RESULTS_FILE = path.resolve(__dirname, '..', '..', 'bench', 'RESULTS.md');
const RESULTS_HEADER = `# Benchmark results

Written by \`npm run bench\` (bench/run.ts); each benchmark rewrites only its own section,
between its \`<!-- name:start -->\` and \`<!-- name:end -->\` markers. Run it on an otherwise idle
machine. Uses \`DATABASE_URL\` when set, else a throw-away embedded PostgreSQL; \`BENCH_DURATION\`
(seconds per target, default 10), \`BENCH_CONNECTIONS\` (default 50) and \`BENCH_WARMUP\` (seconds,
default 5: with one worker per core each warms on its share of the load) change the load; \`BENCH_WORKERS\` (default: one per core) sets the app's WEB_CONCURRENCY;
\`BENCH_ONLY\` (e.g. \`notes-migrate\`) runs some benchmarks only. Numbers from different machines do
not compare.
`;

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
 */
async function main(): Promise<number> {
  const shape = { durationSeconds: positiveInt('BENCH_DURATION', 10), connections: positiveInt('BENCH_CONNECTIONS', 50) };
  const warmupSeconds = positiveInt('BENCH_WARMUP', 5, 0);
  const teardown = new Teardown();
  teardown.handleCrashes();
  try {
    say(process.env.DATABASE_URL ? 'using DATABASE_URL' : 'starting an embedded PostgreSQL in a temp directory');
    const database = await openDatabase();
    teardown.add('database', () => database.stop());
    teardown.handleSignals();
    // One HTTP worker per core, as docs/operations.md recommends for production; BENCH_WORKERS=1 measures a single process.
    const workers = positiveInt('BENCH_WORKERS', os.availableParallelism());
    say(`starting the app (all-in-one, ${workers} worker process${workers > 1 ? 'es' : ''})`);
    // http receivers on 127.0.0.1 are the webhook benchmark's endpoints. In-flight deduplication
    // off unless GRAPHQL_DEDUP says otherwise: the floors this app is judged against share no work,
    // and concurrent identical requests (tenant-public's, revenue's four loops) would otherwise
    // share one fetch; peer-gateway, which judges deduplication, starts servers of its own.
    const app = await startApp(database.url, workers, { ALLOW_HTTP_WEBHOOKS: '1', GRAPHQL_DEDUP: process.env.GRAPHQL_DEDUP ?? '0' });
    teardown.add('app', () => app.child.stop());
    say(`app ready at ${app.url}`);

    const context: BenchContext = {
      app,
      databaseUrl: database.url,
      databaseLabel: database.source === 'embedded' ? 'embedded PostgreSQL (temp dir, same machine)' : 'DATABASE_URL',
      shape,
      warmupSeconds,
      teardown,
      resultsFile: RESULTS_FILE,
      resultsHeader: RESULTS_HEADER,
    };
    // BENCH_ONLY=notes-migrate (comma-separated names) runs a subset; all run by default.
    const only = (process.env.BENCH_ONLY ?? '').split(',').map((name) => name.trim()).filter(Boolean);
    const benchmarks = { 'tenant-public': benchTenantPublic, 'notes-migrate': benchNotesMigrate, webhooks: benchWebhooks, revenue: benchRevenue, tracing: benchTracing, 'peer-gateway': benchPeerGateway, 'noisy-neighbour': benchNoisyNeighbour, plumbing: benchPlumbing };
    const unknown = only.filter((name) => !(name in benchmarks));
    if (unknown.length) throw new Error(`BENCH_ONLY names unknown benchmarks: ${unknown.join(', ')} (known: ${Object.keys(benchmarks).join(', ')})`);
    let valid = true;
    for (const [name, bench] of Object.entries(benchmarks)) {
      if (only.length && !only.includes(name)) continue;
      const began = Date.now();
      const report = await bench(context);
      process.stdout.write(`\n${report.markdown}\n\n`);
      say(`${name} took ${((Date.now() - began) / 1000).toFixed(0)} s`);
      valid &&= report.valid;
    }
    say(`wrote ${path.relative(process.cwd(), RESULTS_FILE) || RESULTS_FILE}`);
    return valid ? 0 : 1;
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
