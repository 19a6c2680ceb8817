import { startApp, type AppUnderTest } from './lib/app';
import { benchSetting, type BenchContext } from './lib/context';
import { combineLoads, runLoad, type LoadSummary, type LoadTarget } from './lib/load';
import { startOtlpSink } from './lib/otlp-sink';
import { treeCpuMs } from './lib/process-tree';
import { say } from './lib/progress';
import { createTenant } from './lib/tenant';
import { buildTracingReport, ratioLabel, VARIANTS, type Variant } from './tracing-report';

/** The sampled variant's ratio: BENCH_TRACING_RATIO, a number above 0 and below 1, default 0.1 (issue 32's 10%). */
function samplingRatio(): number {
  const raw = process.env.BENCH_TRACING_RATIO;
  if (raw === undefined || raw === '') return 0.1;
  const value = Number(raw);
  if (!(value > 0 && value < 1)) throw new Error(`BENCH_TRACING_RATIO must be a number between 0 and 1 (got "${raw}")`);
  return value;
}

/** Connections per pool in each of the four apps' processes. */
const POOL_MAX = 2;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Issues 19 and 32: what tracing costs on the hot read path. `GET /tenant/public` on four apps
 * alike but for their OTEL_* settings (off; the SDK on, exporting nothing; exporting every
 * request; exporting a sampled share, parent-based ratio), measured in alternation (off, on,
 * export, sampled, sampled, export, on, off, each half the duration) for BENCH_TRACING_ROUNDS
 * rounds. Server CPU per request (all the app's processes) is compared as a ratio to off.
 */
export async function benchTracing(ctx: BenchContext): Promise<{ markdown: string; valid: boolean }> {
  const rounds = benchSetting(ctx, 'BENCH_TRACING_ROUNDS', 3, 1);
  const ratio = samplingRatio();
  // A batch waits up to OTEL_BSP_SCHEDULE_DELAY (5 s by default) before it is sent: the counts below wait that long.
  const exportDelayMs = ctx.smoke ? 200 : 5_000;
  // A receiver per exporting app, so each one's spans are counted apart.
  const sinks = { export: await startOtlpSink(), sampled: await startOtlpSink() };
  ctx.teardown.add('OTLP receivers', async () => void (await Promise.all([sinks.export.close(), sinks.sampled.close()])));
  // Speed plumbing as the shared app has it (deduplication off unless SPEED_PLUMBING says otherwise, run.ts): shared fetches would leave most requests without subgraph spans.
  // DB_POOL_MAX=2 per worker: four apps at the default (~26 connections each under this load) and
  // the shared one passed PostgreSQL's default max_connections (100) and were refused (53300).
  const quiet = { DB_POOL_MAX: String(POOL_MAX), OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '', OTEL_SDK_DISABLED: 'false', OTEL_TRACES_SAMPLER: '', OTEL_TRACES_SAMPLER_ARG: '', OTEL_BSP_SCHEDULE_DELAY: String(exportDelayMs), WEBHOOK_DISPATCHER: 'off', SPEED_PLUMBING: ctx.app.plumbing };
  const env: Record<Variant, Record<string, string>> = {
    off: { ...quiet, OTEL_SDK_DISABLED: '' },
    on: quiet,
    export: { ...quiet, OTEL_EXPORTER_OTLP_ENDPOINT: sinks.export.endpoint },
    sampled: { ...quiet, OTEL_EXPORTER_OTLP_ENDPOINT: sinks.sampled.endpoint, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(ratio) },
  };
  const apps = {} as Record<Variant, AppUnderTest>;
  const start = async (variant: Variant) => {
    say(`tracing: starting the app with tracing ${variant}`);
    apps[variant] = await startApp(ctx.databaseUrl, ctx.app.workers, env[variant]);
    ctx.teardown.add(`app (tracing ${variant})`, () => apps[variant].child.stop());
  };
  // One after another, so each app's workers settle on idle cores; the smoke run's single processes start together.
  if (ctx.smoke) await Promise.all(VARIANTS.map(start));
  else for (const variant of VARIANTS) await start(variant);
  const tenant = await createTenant(ctx.app.url, ctx.app.operatorToken, 'Tracing Bench Clinic');
  const target = (variant: Variant): LoadTarget => ({ name: variant, url: `${apps[variant].url}/tenant/public`, headers: tenant.headers });

  // Spans one request makes when recorded, counted sequentially before any load.
  const probes = ctx.smoke ? 5 : 20;
  for (let i = 0; i < probes; i++) {
    const res = await fetch(target('export').url, { headers: tenant.headers });
    if (!res.ok) throw new Error(`the exporting app answered ${res.status} before the load started`);
    await res.arrayBuffer();
  }
  await pause(exportDelayMs + 1_000);
  const probeSpans = sinks.export.spans();
  const spansPerRequest = probeSpans / probes;
  say(`tracing: ${spansPerRequest} spans per recorded request`);

  // Requests each exporting app answered under load, for the spans it sent per request.
  const requests = { export: 0, sampled: 0 };
  /** Runs one load, counting the exporting apps' requests. */
  const load = async (variant: Variant, durationSeconds: number): Promise<LoadSummary> => {
    const run = await runLoad(target(variant), { ...ctx.shape, durationSeconds });
    if (variant === 'export' || variant === 'sampled') requests[variant] += run.total;
    return run;
  };
  for (const variant of VARIANTS) {
    if (ctx.warmupSeconds === 0) break;
    say(`tracing ${variant}: warming up ${ctx.warmupSeconds} s`);
    await load(variant, ctx.warmupSeconds);
  }

  const half = Math.max(1, ctx.shape.durationSeconds / 2);
  const plan: Variant[] = [...VARIANTS, ...[...VARIANTS].reverse()];
  const all: Record<Variant, LoadSummary[]> = { off: [], on: [], export: [], sampled: [] };
  const allCpuMs: Record<Variant, number> = { off: 0, on: 0, export: 0, sampled: 0 };
  const perRound: Record<Variant, number>[] = [];
  for (let round = 1; round <= rounds; round++) {
    const parts: Record<Variant, LoadSummary[]> = { off: [], on: [], export: [], sampled: [] };
    const cpuMs: Record<Variant, number> = { off: 0, on: 0, export: 0, sampled: 0 };
    for (const variant of plan) {
      say(`tracing round ${round}/${rounds}: ${variant}, ${half} s with ${ctx.shape.connections} connections`);
      const pid = apps[variant].child.process.pid!;
      const before = treeCpuMs(pid);
      parts[variant].push(await load(variant, half));
      cpuMs[variant] += treeCpuMs(pid) - before;
    }
    const cpu = Object.fromEntries(VARIANTS.map((v) => [v, (cpuMs[v] * 1000) / Math.max(1, combineLoads(parts[v]).total)])) as Record<Variant, number>;
    perRound.push(cpu);
    say(`tracing round ${round}: server CPU us/req ${VARIANTS.map((v) => `${v} ${Math.round(cpu[v])} (${(cpu[v] / cpu.off).toFixed(2)}x)`).join(', ')}`);
    for (const v of VARIANTS) {
      all[v].push(...parts[v]);
      allCpuMs[v] += cpuMs[v];
    }
  }
  await pause(exportDelayMs + 1_000);

  const runs = Object.fromEntries(VARIANTS.map((v) => [v, combineLoads(all[v])])) as Record<Variant, LoadSummary>;
  const cpu = Object.fromEntries(VARIANTS.map((v) => [v, (allCpuMs[v] * 1000) / Math.max(1, runs[v].total)])) as Record<Variant, number>;
  const exported = { export: (sinks.export.spans() - probeSpans) / Math.max(1, requests.export), sampled: sinks.sampled.spans() / Math.max(1, requests.sampled) };
  const report = buildTracingReport({ runs, cpu, perRound, spansPerRequest, exported, ratio }, {
    workers: ctx.app.workers,
    poolMax: POOL_MAX,
    dedup: ctx.app.dedup,
    database: ctx.databaseLabel,
    shape: { ...ctx.shape, durationSeconds: half },
    rounds,
    warmupSeconds: ctx.warmupSeconds,
  });
  say(`tracing: ${ratioLabel(ratio)} / off ${(cpu.sampled / cpu.off).toFixed(2)}x; exported spans per request: every request ${exported.export.toFixed(2)}, sampled ${exported.sampled.toFixed(2)}`);
  // Nothing exported would mean the exporter, not the cost, is broken: the smoke run checks it.
  const valid = report.valid && spansPerRequest > 0 && exported.export > 0 && exported.sampled > 0;
  ctx.record('tracing', report.markdown);
  // The four apps are this benchmark's own: stopped now, so later benchmarks share the cores (and the database's connections) with nothing idle of ours.
  await Promise.all(VARIANTS.map((v) => apps[v].child.stop()));
  return { markdown: report.markdown, valid };
}
