import { startApp, type AppUnderTest } from './lib/app';
import { combineLoads, describeFailures, isClean, runLoad, type LoadSummary, type LoadTarget } from './lib/load';
import { describeMachine, formatMachine } from './lib/machine';
import { startOtlpSink } from './lib/otlp-sink';
import { describeProcesses, treeCpuMs } from './lib/process-tree';
import { say } from './lib/progress';
import { writeSection } from './lib/results-file';
import { markdownTable } from './lib/table';
import { createTenant } from './lib/tenant';
import type { BenchContext } from './tenant-public';

/** The three ways a server can run, compared on the same route: OpenTelemetry off, on without an exporter (the default), exporting. */
const VARIANTS = ['off', 'on', 'export'] as const;
type Variant = (typeof VARIANTS)[number];

const LABELS: Record<Variant, string> = {
  off: 'off (the default: no endpoint)',
  on: 'on, no exporter (`OTEL_SDK_DISABLED=false`)',
  export: 'exporting (OTLP/HTTP to a local receiver)',
};

/** A benchmark's report: its Markdown and whether every request was answered 2xx. */
interface Report {
  valid: boolean;
  markdown: string;
}

const times = (n: number) => `${n.toFixed(2)}x`;
const spread = (values: number[]) => `${times(Math.min(...values))} to ${times(Math.max(...values))}`;

/**
 * Issue 19's check that tracing costs little on the hot read path: `GET /tenant/public` on three
 * apps alike but for their OTEL_* settings, measured in alternation (off, on, export, export, on,
 * off, each half the duration) for BENCH_TRACING_ROUNDS rounds. Server CPU per request (all the
 * app's processes) is compared as a ratio to tracing off, per round and over all rounds.
 */
export async function benchTracing(ctx: BenchContext): Promise<Report> {
  const rounds = Number(process.env.BENCH_TRACING_ROUNDS ?? 3);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`BENCH_TRACING_ROUNDS must be a whole number >= 1 (got "${process.env.BENCH_TRACING_ROUNDS}")`);
  const sink = await startOtlpSink();
  ctx.teardown.add('OTLP receiver', () => sink.close());
  // Deduplication as the shared app has it (off unless GRAPHQL_DEDUP, run.ts): shared fetches would leave most requests without subgraph spans.
  const quiet = { OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '', OTEL_SDK_DISABLED: 'false', WEBHOOK_DISPATCHER: 'off', GRAPHQL_DEDUP: ctx.app.dedup ? '1' : '0' };
  const env: Record<Variant, Record<string, string>> = {
    off: { ...quiet, OTEL_SDK_DISABLED: '' },
    on: quiet,
    export: { ...quiet, OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint },
  };
  const apps = {} as Record<Variant, AppUnderTest>;
  for (const variant of VARIANTS) {
    say(`tracing: starting the app with tracing ${variant}`);
    apps[variant] = await startApp(ctx.databaseUrl, ctx.app.workers, env[variant]);
    ctx.teardown.add(`app (tracing ${variant})`, () => apps[variant].child.stop());
  }
  const tenant = await createTenant(ctx.app.url, ctx.app.operatorToken, 'Tracing Bench Clinic');
  const target = (variant: Variant): LoadTarget => ({ name: variant, url: `${apps[variant].url}/tenant/public`, headers: tenant.headers });

  // Spans one request makes, counted sequentially before any load (the exporter's batch delay is 5 s).
  const probes = 20;
  for (let i = 0; i < probes; i++) {
    const res = await fetch(target('export').url, { headers: tenant.headers });
    if (!res.ok) throw new Error(`the exporting app answered ${res.status} before the load started`);
    await res.arrayBuffer();
  }
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  const spansPerRequest = sink.spans() / probes;
  say(`tracing: ${spansPerRequest} spans per request`);

  let exportRequests = 0;
  const spansBefore = sink.spans();
  for (const variant of VARIANTS) {
    if (ctx.warmupSeconds === 0) break;
    say(`tracing ${variant}: warming up ${ctx.warmupSeconds} s`);
    const warm = await runLoad(target(variant), { ...ctx.shape, durationSeconds: ctx.warmupSeconds });
    if (variant === 'export') exportRequests += warm.total;
  }

  const half = { ...ctx.shape, durationSeconds: ctx.shape.durationSeconds / 2 };
  const plan: Variant[] = ['off', 'on', 'export', 'export', 'on', 'off'];
  const all: Record<Variant, LoadSummary[]> = { off: [], on: [], export: [] };
  const allCpuMs: Record<Variant, number> = { off: 0, on: 0, export: 0 };
  const perRound: Record<Variant, number>[] = [];
  for (let round = 1; round <= rounds; round++) {
    const parts: Record<Variant, LoadSummary[]> = { off: [], on: [], export: [] };
    const cpuMs: Record<Variant, number> = { off: 0, on: 0, export: 0 };
    for (const variant of plan) {
      say(`tracing round ${round}/${rounds}: ${variant}, ${half.durationSeconds} s with ${half.connections} connections`);
      const pid = apps[variant].child.process.pid!;
      const before = treeCpuMs(pid);
      const run = await runLoad(target(variant), half);
      cpuMs[variant] += treeCpuMs(pid) - before;
      parts[variant].push(run);
      if (variant === 'export') exportRequests += run.total;
    }
    const cpu = Object.fromEntries(VARIANTS.map((v) => [v, (cpuMs[v] * 1000) / combineLoads(parts[v]).total])) as Record<Variant, number>;
    perRound.push(cpu);
    say(`tracing round ${round}: server CPU us/req off ${Math.round(cpu.off)}, on ${Math.round(cpu.on)} (${times(cpu.on / cpu.off)}), export ${Math.round(cpu.export)} (${times(cpu.export / cpu.off)})`);
    for (const v of VARIANTS) {
      all[v].push(...parts[v]);
      allCpuMs[v] += cpuMs[v];
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  const exportedPerRequest = (sink.spans() - spansBefore) / exportRequests;

  const runs = Object.fromEntries(VARIANTS.map((v) => [v, combineLoads(all[v])])) as Record<Variant, LoadSummary>;
  const cpu = Object.fromEntries(VARIANTS.map((v) => [v, (allCpuMs[v] * 1000) / runs[v].total])) as Record<Variant, number>;
  const problems = VARIANTS.filter((v) => !isClean(runs[v])).map((v) => `${v}: ${describeFailures(runs[v])}`);
  const rows = VARIANTS.map((v) => [
    LABELS[v],
    Math.round(runs[v].requestsPerSecond).toLocaleString('en-US'),
    String(runs[v].p50Ms),
    String(runs[v].p99Ms),
    String(Math.round(cpu[v])),
    times(cpu[v] / cpu.off),
    runs[v].total.toLocaleString('en-US'),
    String(runs[v].non2xx),
    String(runs[v].errors),
  ]);
  const roundRows = perRound.map((c, i) => [String(i + 1), String(Math.round(c.off)), String(Math.round(c.on)), String(Math.round(c.export)), times(c.on / c.off), times(c.export / c.off)]);
  const markdown = [
    '## Tracing: GET /tenant/public with OpenTelemetry off, on without an exporter, and exporting',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${formatMachine(describeMachine())}`,
    `- Mode: three all-in-one apps alike but for OTEL_* (${describeProcesses(ctx.app.workers)} each), NODE_ENV=production, LOG_LEVEL=warn, GRAPHQL_DEDUP=${ctx.app.dedup ? '1' : '0'}; database: ${ctx.databaseLabel}`,
    `- Load: autocannon, ${ctx.shape.connections} connections; ${rounds} round(s) of off, on, export, export, on, off at ${half.durationSeconds} s each, after a ${ctx.warmupSeconds} s warm-up of each app; load generator and OTLP receiver in the benchmark process on the same machine`,
    `- Spans per request: ${spansPerRequest} (20 sequential requests); exported under load: ${exportedPerRequest.toFixed(1)} per request (fewer means the exporter's queue dropped some)`,
    '',
    markdownTable(['tracing', 'req/s (mean)', 'p50 ms', 'p99 ms', 'server CPU us/req', 'CPU / off', 'requests', 'non-2xx', 'errors'], rows, [false, true, true, true, true, true, true, true, true]),
    '',
    'Per round (server CPU us per request, and the ratios to off):',
    '',
    markdownTable(['round', 'off', 'on', 'export', 'on / off', 'export / off'], roundRows, [false, true, true, true, true, true]),
    '',
    `Spread over the rounds: on / off ${spread(perRound.map((c) => c.on / c.off))}; export / off ${spread(perRound.map((c) => c.export / c.off))}.`,
    '',
    problems.length ? `**Invalid run**: ${problems.join('; ')}.` : 'Valid run: every response was 2xx.',
  ].join('\n');
  writeSection(ctx.resultsFile, 'tracing', markdown, ctx.resultsHeader);
  return { valid: problems.length === 0, markdown };
}
