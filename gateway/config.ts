import { DEFAULT_RETENTION_DAYS, MIN_RETENTION_DAYS } from '../platform/audit/retention';
import { resolve } from 'node:path';
import { SUBGRAPH_SETTINGS } from '../subgraphs/settings';
import { WORKER_ROLE_ENV } from './cluster/cluster-worker';
import { readShutdownGraceMs } from '../platform/http-drain';
import { DEFAULT_SUPERVISE_SECONDS, readJobSettings, type JobSettings } from '../platform/jobs/job-settings';
import type { SubgraphName } from '../platform/subgraph-definition';
import { readSubgraphUrls, type SubgraphUrls } from './subgraph-urls';
import { readTracingSettings } from '../platform/tracing/settings';
import { readSpeedPlumbing, type SpeedPlumbing } from '../platform/speed/speed-plumbing';
import { boolSetting, intSetting, readEdgeSettings, readGraphQLLimits, reportRetiredSwitches, type EdgeSettings, type GraphQLLimits } from './config-readers';
import { readReplicaSettings, type ReplicaSettings } from '../platform/replica/replica-settings';

/** How the process runs: everything in one process, or the gateway alone in front of subgraph services. */
export type RunMode = 'all-in-one' | 'distributed';

/** Validated configuration; read once at start-up from the environment (docs/operations.md lists every variable). */
export interface Config {
  mode: RunMode;
  nodeEnv: string;
  host: string;
  port: number;
  /** Absolute URL the API is reached at, for printed links and asset URLs. */
  publicUrl: string;
  /** null: start the embedded PostgreSQL under dataDir. */
  databaseUrl: string | null;
  /** DATABASE_REPLICA_URL, REPLICA_MAX_LAG_MS: the replica of the in-process subgraphs' stale-tolerant reads (analytics). */
  replica: ReplicaSettings;
  dataDir: string;
  /** Shared secret the gateway sends to subgraphs; required in distributed mode. */
  internalSecret: string | null;
  /** Enables `/admin/*` when set. */
  operatorToken: string | null;
  /** Each subgraph service's replicas (SUBGRAPH_<NAME>_URL, comma-separated); distributed mode only. */
  subgraphUrls: SubgraphUrls;
  /** Longest wait for one subgraph fetch's answer, per replica tried (SUBGRAPH_TIMEOUT_MS). */
  subgraphTimeoutMs: number;
  /** `fallbackPoints`: a tenant's budget per window in this process while Redis does not answer (RATE_LIMIT_FALLBACK_PER_WINDOW); null: the limit shared among WEB_CONCURRENCY. */
  rateLimit: { points: number; windowSeconds: number; authFailurePoints: number; leasePoints: number | null; fallbackPoints: number | null };
  redisUrl: string | null;
  /** Longest wait for one Redis command before the rate limits fall back to this process's memory (REDIS_TIMEOUT_MS). */
  redisTimeoutMs: number;
  /** How long an Idempotency-Key whose request never finished stays held before a retry may run (IDEMPOTENCY_LOCK_SECONDS). */
  idempotencyLockSeconds: number;
  bodyLimitBytes: number;
  logLevel: string;
  demoTenant: boolean;
  /** Whether a browser's GET /graphql gets the GraphiQL IDE (GRAPHIQL; on by default: it does nothing without a key). */
  graphiql: boolean;
  /** Whether `/console` serves the analyst console (CONSOLE; on by default: it does nothing without a key). */
  console: boolean;
  /** DB_POOL_MAX: connections per ORM; null: 10 in one process, shared out among cluster workers. */
  dbPoolMax: number | null;
  /** EMBEDDED_PG_DEBUG: the embedded PostgreSQL's own log goes to this process's debug log. */
  embeddedPgDebug: boolean;
  /** WEBHOOK_DISPATCHER (on by default; `off` in tests that run their own): whether an all-in-one process runs the webhook workers. */
  webhookWorkers: boolean;
  /** HPP_WORKER_ROLE, set by the cluster primary on the workers it forks (gateway/cluster/cluster-worker.ts). */
  workerRole: 'first' | 'other';
  /** Each subgraph's own settings as its `readSettings` read them, for the subgraphs this process runs. */
  subgraphSettings: Partial<Record<SubgraphName, unknown>>;
  /** HTTP worker processes (WEB_CONCURRENCY); above 1 a primary process forks them (gateway/cluster/cluster-primary.ts). */
  workers: number;
  /** How long a shutdown lets in-flight requests and queries finish (SHUTDOWN_GRACE_SECONDS). */
  shutdownGraceMs: number;
  /** People's sessions (docs/access.md, Sessions): the idle timeout (SESSION_IDLE_SECONDS, 15 minutes) and the absolute lifetime (SESSION_LIFETIME_SECONDS, 12 hours). */
  sessions: { idleMs: number; maxMs: number };
  /** SSO_ALLOW_INTERNAL=1 (development and tests only): tenants' identity providers may be on this machine or network; otherwise public addresses only. */
  ssoAllowInternal: boolean;
  /** How many days audit records are kept (AUDIT_RETENTION_DAYS; six years by default, at least one; docs/audit.md). */
  auditRetentionDays: number;
  /** Port of the Prometheus metrics server (METRICS_PORT); null: none (the operator's `/metrics` may still answer). */
  metricsPort: number | null;
  /** Interface the metrics server binds (METRICS_HOST, HOST by default). */
  metricsHost: string;
  /** Whether identical query fetches to a subgraph in flight at once share one answer (SPEED_PLUMBING `inflight-dedup`; platform/speed/inflight-dedup.ts). */
  graphqlDedup: boolean;
  /** Which pieces of speed plumbing run (SPEED_PLUMBING; platform/speed/speed-plumbing.ts). */
  plumbing: SpeedPlumbing;
  /** Whether a REST route whose query the gateway answers with one subgraph fetch sends that fetch itself (SPEED_PLUMBING `rest-direct`; platform/speed/single-fetch-plan.ts). */
  restDirect: boolean;
  /** Whether those fetches run compiled by graphql-jit in an all-in-one process (SPEED_PLUMBING `rest-compiled`; gateway/graphql/local-data-source.ts). */
  restCompiled: boolean;
  /** Operation limits of `/graphql` and `/graphql/stream` (GRAPHQL_*; gateway/graphql/graphql-limits.ts applies them). */
  graphql: GraphQLLimits;
  /** The job queue of webhook deliveries and e-mail (JOB_SUPERVISE_SECONDS). */
  jobs: JobSettings;
  /** Budgets and timeouts for callers not yet allowed anything: anonymous bodies, public documents, slow or many connections. */
  edge: EdgeSettings;
}

/** Every problem found in the environment at once, instead of the first exception. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}


/** Reads and validates the configuration from an environment (process.env by default; tests pass their own). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const int = intSetting(env, problems);
  const bool = boolSetting(env, problems);
  const text = (name: string): string | null => (env[name] && env[name]!.trim() !== '' ? env[name]!.trim() : null);

  const modeRaw = text('MODE') ?? 'all-in-one';
  if (modeRaw !== 'all-in-one' && modeRaw !== 'distributed') problems.push(`MODE must be "all-in-one" or "distributed" (got "${modeRaw}")`);
  const mode = modeRaw === 'distributed' ? 'distributed' : 'all-in-one';

  const port = int('PORT', 4000, 0, 65535);
  const host = text('HOST') ?? '0.0.0.0';
  const databaseUrl = text('DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  const replica = readReplicaSettings(env, problems);

  const subgraphUrls = readSubgraphUrls(env, mode === 'distributed', problems);
  // 30 s: a logo upload's decoding on a loaded two-core machine has taken longer than 15 s.
  const subgraphTimeoutMs = int('SUBGRAPH_TIMEOUT_MS', 30_000, 100, 600_000);
  const idempotencyLockSeconds = int('IDEMPOTENCY_LOCK_SECONDS', 60, 2, 3_600);
  // A request still running when its key is released could run twice: the key must outlive the longest fetch.
  if (mode === 'distributed' && idempotencyLockSeconds * 1000 <= subgraphTimeoutMs) problems.push(`IDEMPOTENCY_LOCK_SECONDS (${idempotencyLockSeconds}) must be longer than SUBGRAPH_TIMEOUT_MS (${subgraphTimeoutMs} ms)`);
  const internalSecret = text('INTERNAL_SECRET');
  if (mode === 'distributed') {
    if (!internalSecret) problems.push('INTERNAL_SECRET is required in distributed mode (the subgraphs refuse calls without it)');
    if (!databaseUrl) problems.push('DATABASE_URL is required in distributed mode');
  }
  const operatorToken = text('OPERATOR_TOKEN');
  if (operatorToken && operatorToken.length < 16) problems.push('OPERATOR_TOKEN must be at least 16 characters');

  const metricsPort = text('METRICS_PORT') === null ? null : int('METRICS_PORT', 0, 0, 65535);
  if (metricsPort !== null && metricsPort !== 0 && metricsPort === port) problems.push('METRICS_PORT must differ from PORT');

  // Each subgraph reads its own settings (notes: LLM_*, billing: SMTP_URL, MAIL_FROM, ...): in-process
  // they are this process's, and a bad value stops the start with the rest. Distributed, each
  // subgraph service reads them itself, but checking here still catches a typo shared by all.
  const subgraphSettings: Partial<Record<SubgraphName, unknown>> = {};
  for (const [name, readSettings] of Object.entries(SUBGRAPH_SETTINGS) as [SubgraphName, (typeof SUBGRAPH_SETTINGS)[SubgraphName]][]) {
    const read = readSettings(env);
    // Tenant and billing both send e-mail and read the same mail settings: a bad one is listed once.
    problems.push(...read.problems.filter((problem) => !problems.includes(problem)));
    subgraphSettings[name] = read.settings;
  }
  // OTEL_*: read (and applied) by the tracing SDK before this loader runs; checked here so a bad value stops the start.
  problems.push(...readTracingSettings(env).problems);
  const jobs = readJobSettings(env);
  problems.push(...jobs.problems);

  const plumbing = readSpeedPlumbing(env, problems);
  reportRetiredSwitches(env, problems);
  const nodeEnv = text('NODE_ENV') ?? 'development';
  // Production hides the schema's shape from strangers; development keeps tools (and typos' hints) working.
  const development = nodeEnv !== 'production';
  const config: Config = {
    mode,
    nodeEnv,
    host,
    port,
    publicUrl: (text('PUBLIC_URL') ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    databaseUrl,
    replica,
    dataDir: resolve(text('DATA_DIR') ?? '.data'),
    internalSecret,
    operatorToken,
    subgraphUrls,
    subgraphTimeoutMs,
    idempotencyLockSeconds,
    redisTimeoutMs: int('REDIS_TIMEOUT_MS', 500, 20, 60_000),
    rateLimit: {
      points: int('RATE_LIMIT_PER_WINDOW', 600, 1, 10_000_000),
      windowSeconds: int('RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400),
      authFailurePoints: int('RATE_LIMIT_AUTH_FAILURES_PER_WINDOW', 60, 1, 10_000_000),
      // Unset: 2% of the limit shared among this replica's workers (platform/speed/rate-lease.ts); 1 asks the store for every request.
      leasePoints: !plumbing.has('rate-lease') ? 1 : env.RATE_LIMIT_LEASE === undefined || env.RATE_LIMIT_LEASE === '' ? null : int('RATE_LIMIT_LEASE', 1, 1, 10_000_000),
      fallbackPoints: text('RATE_LIMIT_FALLBACK_PER_WINDOW') === null ? null : int('RATE_LIMIT_FALLBACK_PER_WINDOW', 1, 1, 10_000_000),
    },
    redisUrl: text('REDIS_URL'),
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    logLevel: text('LOG_LEVEL') ?? 'info',
    demoTenant: text('DEMO_TENANT') !== '0',
    graphiql: bool('GRAPHIQL', true),
    console: bool('CONSOLE', true),
    subgraphSettings,
    dbPoolMax: text('DB_POOL_MAX') === null ? null : int('DB_POOL_MAX', 10, 1, 1_000),
    webhookWorkers: text('WEBHOOK_DISPATCHER') !== 'off',
    embeddedPgDebug: text('EMBEDDED_PG_DEBUG') !== null,
    workerRole: text(WORKER_ROLE_ENV) === 'other' ? 'other' : 'first',
    workers: int('WEB_CONCURRENCY', 1, 1, 64),
    shutdownGraceMs: readShutdownGraceMs(env, problems),
    sessions: { idleMs: int('SESSION_IDLE_SECONDS', 900, 1, 86_400) * 1000, maxMs: int('SESSION_LIFETIME_SECONDS', 43_200, 60, 2_592_000) * 1000 },
    ssoAllowInternal: bool('SSO_ALLOW_INTERNAL', false),
    auditRetentionDays: int('AUDIT_RETENTION_DAYS', DEFAULT_RETENTION_DAYS, MIN_RETENTION_DAYS, 36_500),
    metricsPort,
    metricsHost: text('METRICS_HOST') ?? host,
    graphqlDedup: plumbing.has('inflight-dedup'),
    restDirect: plumbing.has('rest-direct'),
    restCompiled: plumbing.has('rest-compiled'),
    plumbing,
    graphql: readGraphQLLimits(int, bool, development),
    jobs: jobs.settings ?? { superviseSeconds: DEFAULT_SUPERVISE_SECONDS },
    edge: readEdgeSettings(int),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
