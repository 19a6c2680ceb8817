import { describeFailures, isClean, type LoadShape, type LoadSummary } from './lib/load';
import { describeMachine, formatMachine } from './lib/machine';
import { describeProcesses } from './lib/process-tree';
import { markdownTable } from './lib/table';

/** The four ways an app runs in the tracing benchmark, in the order of a round's first half. */
export const VARIANTS = ['off', 'on', 'export', 'sampled'] as const;
export type Variant = (typeof VARIANTS)[number];

/** Issue 32's target: exporting a sampled 10% costs at most 1.15x the CPU per request of tracing off. */
export const SAMPLED_TARGET = 1.15;

/** `10%`, for a sampling ratio. */
export const ratioLabel = (ratio: number) => `${+(ratio * 100).toFixed(2)}%`;

const labels = (ratio: number): Record<Variant, string> => ({
  off: 'off (the default: no endpoint)',
  on: 'SDK on, nothing exported (`OTEL_SDK_DISABLED=false`, no endpoint)',
  export: 'exporting every request (OTLP/HTTP to a local receiver)',
  sampled: `exporting ${ratioLabel(ratio)} (\`parentbased_traceidratio\`, \`OTEL_TRACES_SAMPLER_ARG=${ratio}\`)`,
});

/** What the rounds measured. */
export interface TracingMeasured {
  runs: Record<Variant, LoadSummary>;
  /** Server CPU per request over all rounds, microseconds. */
  cpu: Record<Variant, number>;
  perRound: Record<Variant, number>[];
  /** Spans one recorded request makes (sequential probes). */
  spansPerRequest: number;
  /** Spans received per request under load. */
  exported: { export: number; sampled: number };
  ratio: number;
}

/** How the apps ran and were loaded. */
export interface TracingConditions {
  workers: number;
  /** DB_POOL_MAX of each app's processes. */
  poolMax: number;
  dedup: boolean;
  database: string;
  /** Each measured run's shape. */
  shape: LoadShape;
  rounds: number;
  warmupSeconds: number;
}

const times = (n: number) => `${n.toFixed(2)}x`;
const spread = (values: number[]) => `${times(Math.min(...values))} to ${times(Math.max(...values))}`;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** The Markdown section of bench/RESULTS.md, and whether every request was answered 2xx. */
export function buildTracingReport(measured: TracingMeasured, conditions: TracingConditions): { markdown: string; valid: boolean } {
  const { runs, cpu, perRound, ratio } = measured;
  const label = labels(ratio);
  const problems = VARIANTS.filter((v) => !isClean(runs[v])).map((v) => `${v}: ${describeFailures(runs[v])}`);
  const rows = VARIANTS.map((v) => [
    label[v],
    Math.round(runs[v].requestsPerSecond).toLocaleString('en-US'),
    String(runs[v].p50Ms),
    String(runs[v].p99Ms),
    String(Math.round(cpu[v])),
    times(cpu[v] / cpu.off),
    runs[v].total.toLocaleString('en-US'),
    String(runs[v].non2xx),
    String(runs[v].errors),
  ]);
  const roundRows = perRound.map((c, i) => [String(i + 1), ...VARIANTS.map((v) => String(Math.round(c[v]))), ...VARIANTS.slice(1).map((v) => times(c[v] / c.off))]);
  const sampledRatios = perRound.map((c) => c.sampled / c.off);
  const sampled = cpu.sampled / cpu.off;
  const verdict = sampled <= SAMPLED_TARGET ? 'PASS' : Math.min(...sampledRatios) <= SAMPLED_TARGET ? 'MISS (within the rounds\' spread)' : 'MISS';
  const markdown = [
    '## Tracing: GET /tenant/public with OpenTelemetry off, the SDK on exporting nothing, exporting every request, and exporting a sample',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${formatMachine(describeMachine())}`,
    `- Mode: four all-in-one apps alike but for OTEL_* (${describeProcesses(conditions.workers)} each), NODE_ENV=production, LOG_LEVEL=warn, \`inflight-dedup\` ${conditions.dedup ? 'on' : 'off'}, DB_POOL_MAX=${conditions.poolMax} (beside the shared app, within PostgreSQL's 100 connections); database: ${conditions.database}`,
    `- Load: autocannon, ${conditions.shape.connections} connections; ${conditions.rounds} round(s) of ${[...VARIANTS, ...[...VARIANTS].reverse()].join(', ')} at ${conditions.shape.durationSeconds} s each, after a ${conditions.warmupSeconds} s warm-up of each app; load generator and OTLP receivers (one per exporting app) in the benchmark process on the same machine`,
    `- Spans per recorded request: ${measured.spansPerRequest} (sequential requests); received under load: ${measured.exported.export.toFixed(2)} per request exporting every request (fewer means the exporter's queue dropped some), ${measured.exported.sampled.toFixed(2)} per request sampled (${ratioLabel(measured.exported.sampled / Math.max(measured.spansPerRequest, Number.EPSILON))} of requests recorded)`,
    '',
    markdownTable(['tracing', 'req/s (mean)', 'p50 ms', 'p99 ms', 'server CPU us/req', 'CPU / off', 'requests', 'non-2xx', 'errors'], rows, [false, true, true, true, true, true, true, true, true]),
    '',
    'Per round (server CPU us per request, and the ratios to off):',
    '',
    markdownTable(['round', ...VARIANTS, ...VARIANTS.slice(1).map((v) => `${v} / off`)], roundRows, [false, ...VARIANTS.map(() => true), ...VARIANTS.slice(1).map(() => true)]),
    '',
    `Spread over the rounds (median): ${VARIANTS.slice(1).map((v) => `${v} / off ${spread(perRound.map((c) => c[v] / c.off))} (${times(median(perRound.map((c) => c[v] / c.off)))})`).join('; ')}.`,
    '',
    markdownTable(['target', 'wanted', 'measured', 'verdict'], [[`exporting ${ratioLabel(ratio)}: server CPU per request / off`, `<= ${times(SAMPLED_TARGET)}`, `${times(sampled)} (rounds ${spread(sampledRatios)})`, verdict]]),
    '',
    problems.length ? `**Invalid run**: ${problems.join('; ')}.` : 'Valid run: every response was 2xx.',
  ].join('\n');
  return { markdown, valid: problems.length === 0 };
}
