import pino, { type Logger } from 'pino';
import { readShutdownGraceMs } from './http-drain';
import { loggableError } from './loggable-error';
import { DEFAULT_SUPERVISE_SECONDS, readJobSettings, type JobSettings } from './jobs/job-settings';
import { DEFAULT_POOL_MAX } from './orm';
import type { Env, SubgraphDefinition } from './subgraph-definition';
import { readTracingSettings } from './tracing/settings';
import { readSpeedPlumbing, type SpeedPlumbing } from './speed/speed-plumbing';
import { readReplicaSettings, type ReplicaSettings } from './replica/replica-settings';

/** What a subgraph service needs to run alone, read once from its environment. */
export interface ServiceConfig {
  databaseUrl: string;
  secret: string;
  port: number;
  host: string;
  publicUrl: string | undefined;
  graceMs: number;
  /** DB_POOL_MAX: the subgraph's connection pool. */
  poolMax: number;
  /** JOB_SUPERVISE_SECONDS: how often its job queue picks up a crashed worker's jobs. */
  jobs: JobSettings;
  /** Which pieces of speed plumbing run (SPEED_PLUMBING). */
  plumbing: SpeedPlumbing;
  /** DATABASE_REPLICA_URL and REPLICA_MAX_LAG_MS: the replica of a subgraph whose definition has `staleReads`. */
  replica: ReplicaSettings;
  /** METRICS_PORT: Prometheus `GET /metrics` of this service on a port of its own; null: none. */
  metricsPort: number | null;
  /** METRICS_HOST: the interface of that port (HOST by default). */
  metricsHost: string;
  /** The subgraph's own settings, as its definition's `readSettings` read them. */
  settings: unknown;
  log: Logger;
}

/**
 * The config loader of a subgraph service (distributed mode): DATABASE_URL, DATABASE_REPLICA_URL,
 * REPLICA_MAX_LAG_MS, INTERNAL_SECRET, PORT, HOST, METRICS_PORT, METRICS_HOST, PUBLIC_URL, SHUTDOWN_GRACE_SECONDS, LOG_LEVEL, OTEL_* (docs/tracing.md) and the subgraph's
 * own settings. Every problem is collected, so one start lists them all.
 */
export function loadServiceConfig(env: Env, definition: SubgraphDefinition, defaultPort: number): { config: ServiceConfig; problems: string[] } {
  const problems: string[] = [];
  const databaseUrl = env.DATABASE_URL ?? '';
  const secret = env.INTERNAL_SECRET ?? '';
  const port = Number(env.PORT ?? defaultPort);
  const graceMs = readShutdownGraceMs(env as NodeJS.ProcessEnv, problems);
  problems.push(...readTracingSettings(env as NodeJS.ProcessEnv).problems);
  if (!databaseUrl) problems.push('DATABASE_URL is required');
  if (!secret) problems.push('INTERNAL_SECRET is required (the gateway sends it on every call)');
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push(`PORT must be a port number (got "${env.PORT}")`);
  const poolMax = Number(env.DB_POOL_MAX ?? DEFAULT_POOL_MAX);
  if (!Number.isInteger(poolMax) || poolMax < 1 || poolMax > 1_000) problems.push(`DB_POOL_MAX must be a whole number from 1 to 1000 (got "${env.DB_POOL_MAX}")`);
  const plumbing = readSpeedPlumbing(env as NodeJS.ProcessEnv, problems);
  const replica = readReplicaSettings(env, problems);
  const metricsRaw = env.METRICS_PORT?.trim();
  const metricsPort = metricsRaw ? Number(metricsRaw) : null;
  if (metricsPort !== null && (!Number.isInteger(metricsPort) || metricsPort < 0 || metricsPort > 65535)) problems.push(`METRICS_PORT must be a port number (got "${env.METRICS_PORT}")`);
  else if (metricsPort !== null && metricsPort !== 0 && metricsPort === port) problems.push('METRICS_PORT must differ from PORT');
  const jobs = readJobSettings(env as NodeJS.ProcessEnv);
  problems.push(...jobs.problems);
  const own = definition.readSettings?.(env);
  if (own) problems.push(...own.problems);
  const log = pino({ base: { service: definition.name }, level: env.LOG_LEVEL ?? 'info', timestamp: pino.stdTimeFunctions.isoTime, serializers: { err: loggableError } });
  return {
    config: { databaseUrl, secret, port, host: env.HOST ?? '0.0.0.0', metricsPort, metricsHost: env.METRICS_HOST?.trim() || (env.HOST ?? '0.0.0.0'), publicUrl: env.PUBLIC_URL, graceMs, poolMax, plumbing, replica, jobs: jobs.settings ?? { superviseSeconds: DEFAULT_SUPERVISE_SECONDS }, settings: own?.settings, log },
    problems,
  };
}
