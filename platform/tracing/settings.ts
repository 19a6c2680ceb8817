import { basename, dirname } from 'node:path';

/** The standard OTEL_TRACES_SAMPLER values this platform supports. */
const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;

/** Which traces are recorded (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG). */
export interface SamplerSetting {
  name: (typeof SAMPLERS)[number];
  /** The ratio of the `*traceidratio` samplers, 0 to 1. */
  ratio: number;
}

/** How this process traces; read once from the standard OpenTelemetry variables (docs/tracing.md). */
export interface TracingSettings {
  /**
   * Whether the SDK runs at all. By default only with an endpoint: without one nothing would
   * receive the spans, so nothing is patched and the hot path pays nothing. OTEL_SDK_DISABLED=false
   * turns it on without an endpoint (trace ids in log lines and in `traceparent` to subgraph
   * services, nothing recorded); OTEL_SDK_DISABLED=true turns it off even with one.
   */
  enabled: boolean;
  /** Where spans are sent (OTLP/HTTP, JSON); null: none, and then none is recorded either. */
  endpoint: string | null;
  serviceName: string;
  sampler: SamplerSetting;
  /** OTEL_BSP_SCHEDULE_DELAY: the longest a finished span waits before it is sent. */
  exportDelayMs: number;
  /** OTEL_BSP_MAX_QUEUE_SIZE: finished spans held for export; past it new ones are dropped, never queued without bound. */
  maxQueueSize: number;
}

/**
 * The service name a process reports when OTEL_SERVICE_NAME is unset, from the script it runs:
 * `hpp-gateway`, `hpp-worker`, `hpp-<name>-subgraph` (dist/subgraphs/<name>/main.js).
 */
export function defaultServiceName(script: string | undefined): string {
  if (!script) return 'hpp';
  const file = basename(script).replace(/\.[cm]?[jt]s$/, '');
  const folder = basename(dirname(script));
  if (file !== 'main') return `hpp-${file}`;
  return basename(dirname(dirname(script))) === 'subgraphs' ? `hpp-${folder}-subgraph` : `hpp-${folder}`;
}

/** Checks one OTLP endpoint variable: a URL of http(s), or unset. */
function endpointFrom(env: NodeJS.ProcessEnv, name: string, problems: string[]): string | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return raw;
  } catch {
    // reported below
  }
  problems.push(`${name} must be an http:// or https:// URL (got "${raw}")`);
  return null;
}

/**
 * Reads the OpenTelemetry variables (OTEL_SDK_DISABLED, OTEL_TRACES_EXPORTER,
 * OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT and _PROTOCOL, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER[_ARG],
 * OTEL_BSP_SCHEDULE_DELAY, OTEL_BSP_MAX_QUEUE_SIZE); every bad value goes to `problems`, so the
 * configuration loaders can stop a start with all of them listed. The exporter itself reads the
 * headers, timeout and compression variables (OTEL_EXPORTER_OTLP_HEADERS, ...).
 */
export function readTracingSettings(env: NodeJS.ProcessEnv, script = process.argv[1]): { settings: TracingSettings; problems: string[] } {
  const problems: string[] = [];
  const text = (name: string) => env[name]?.trim() || null;

  const disabledRaw = text('OTEL_SDK_DISABLED')?.toLowerCase() ?? 'false';
  if (disabledRaw !== 'true' && disabledRaw !== 'false') problems.push(`OTEL_SDK_DISABLED must be true or false (got "${env.OTEL_SDK_DISABLED}")`);

  const exporter = text('OTEL_TRACES_EXPORTER')?.toLowerCase() ?? 'otlp';
  if (exporter !== 'otlp' && exporter !== 'none') problems.push(`OTEL_TRACES_EXPORTER must be otlp or none (got "${exporter}")`);
  for (const name of ['OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL']) {
    const protocol = text(name);
    if (protocol && protocol !== 'http/json') problems.push(`${name} must be http/json, the only protocol this build sends (got "${protocol}")`);
  }
  const endpoint = endpointFrom(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', problems) ?? endpointFrom(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', problems);

  const samplerName = (text('OTEL_TRACES_SAMPLER')?.toLowerCase() ?? 'parentbased_always_on') as SamplerSetting['name'];
  if (!SAMPLERS.includes(samplerName)) problems.push(`OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')} (got "${samplerName}")`);
  const ratioRaw = text('OTEL_TRACES_SAMPLER_ARG');
  const ratio = ratioRaw === null ? 1 : Number(ratioRaw);
  if (ratioRaw !== null && (!Number.isFinite(ratio) || ratio < 0 || ratio > 1)) problems.push(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1 (got "${ratioRaw}")`);

  const whole = (name: string, fallback: number, min: number, max: number): number => {
    const raw = text(name);
    if (raw === null) return fallback;
    const value = Number(raw);
    if (Number.isInteger(value) && value >= min && value <= max) return value;
    problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
    return fallback;
  };

  const settings: TracingSettings = {
    enabled: disabledRaw !== 'true' && ((exporter !== 'none' && endpoint !== null) || text('OTEL_SDK_DISABLED') !== null),
    endpoint: exporter === 'none' ? null : endpoint,
    serviceName: text('OTEL_SERVICE_NAME') ?? defaultServiceName(script),
    sampler: { name: SAMPLERS.includes(samplerName) ? samplerName : 'parentbased_always_on', ratio: Number.isFinite(ratio) ? Math.min(1, Math.max(0, ratio)) : 1 },
    exportDelayMs: whole('OTEL_BSP_SCHEDULE_DELAY', 5_000, 1, 600_000),
    maxQueueSize: whole('OTEL_BSP_MAX_QUEUE_SIZE', 2_048, 1, 1_000_000),
  };
  return { settings, problems };
}
