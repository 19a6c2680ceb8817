import { DEFAULT_RETENTION_DAYS, MIN_RETENTION_DAYS } from '../platform/audit/retention';
import { resolve } from 'node:path';
import { SUBGRAPH_SETTINGS } from '../subgraphs/settings';
import { WORKER_ROLE_ENV } from './cluster/cluster-worker';
import { readShutdownGraceMs } from '../platform/http-drain';
import { DEFAULT_SUPERVISE_SECONDS, readJobSettings, type JobSettings } from '../platform/jobs/job-settings';
import type { SubgraphName } from '../platform/subgraph-definition';
import { readSubgraphUrls, type SubgraphUrls } from './subgraph-urls';
import { readTracingSettings } from '../platform/tracing/settings';
import { readSpeedPlumbing, type PlumbingPiece, type SpeedPlumbing } from '../platform/speed/speed-plumbing';
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

/** What the edge grants before it knows who is calling (docs/operations.md, "The edge"). */
export interface EdgeSettings {
  /** Largest body of an anonymous route (a lead webhook), read only after the address's budget (PUBLIC_BODY_LIMIT_BYTES). */
  publicBodyLimitBytes: number;
  /** Requests for public documents (`/openapi.json`, `/docs`, GraphiQL, console) per address and window (PUBLIC_DOCUMENTS_PER_WINDOW); null: ten times the failed-authentication budget. */
  publicDocumentsPerWindow: number | null;
  /** Time a client has to send a request's headers (HTTP_HEADERS_TIMEOUT_SECONDS). */
  headersTimeoutMs: number;
  /** Time a client has to send a whole request, body included; answers (event streams) are not bounded by it (HTTP_REQUEST_TIMEOUT_SECONDS). */
  requestTimeoutMs: number;
  /** Open connections one client address may hold; 0: no cap (MAX_CONNECTIONS_PER_ADDRESS). */
  maxConnectionsPerAddress: number;
}

/** What one GraphQL operation may ask for; beyond any of these it is refused before it runs. */
export interface GraphQLLimits {
  /** Nesting of fields (GRAPHQL_MAX_DEPTH). */
  maxDepth: number;
  /** Aliased fields in the whole operation (GRAPHQL_MAX_ALIASES). */
  maxAliases: number;
  /** Lexical tokens of the document, checked while parsing (GRAPHQL_MAX_TOKENS). */
  maxTokens: number;
  /** Directives in the whole operation (GRAPHQL_MAX_DIRECTIVES). */
  maxDirectives: number;
  /** GraphQL Armor's cost score: objects 2, scalars 1, times 1.5 per level of nesting (GRAPHQL_MAX_COST). */
  maxCost: number;
  /** List fields nested along one path; each multiplies the answer by its length (GRAPHQL_MAX_LIST_DEPTH). */
  maxListDepth: number;
  /** Largest JSON answer of `/graphql`; a larger one is replaced by an error (GRAPHQL_MAX_RESPONSE_BYTES). */
  maxResponseBytes: number;
  /** Subscriptions one tenant may hold open in one process, graphql-sse and graphql-ws together; also its graphql-ws connections (GRAPHQL_MAX_STREAMS_PER_TENANT). */
  maxStreamsPerTenant: number;
  /** Whether `__schema` / `__type` are answered (GRAPHQL_INTROSPECTION). */
  introspection: boolean;
  /** Whether validation errors say `Did you mean ...` (GRAPHQL_FIELD_SUGGESTIONS). */
  fieldSuggestions: boolean;
}

/** Every problem found in the environment at once, instead of the first exception. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}


/** Reads a whole-number setting; a bad value is added to `problems` and the fallback used, so every problem is reported at once. */
export function intSetting(env: NodeJS.ProcessEnv, problems: string[]) {
  return (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
}

/** Reads an on/off setting (`1`/`0`, `true`/`false`, `on`/`off`); a bad value is added to `problems` and the fallback used. */
export function boolSetting(env: NodeJS.ProcessEnv, problems: string[]) {
  return (name: string, fallback: boolean): boolean => {
    const raw = env[name]?.trim().toLowerCase();
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'on'].includes(raw)) return true;
    if (['0', 'false', 'off'].includes(raw)) return false;
    problems.push(`${name} must be 1 or 0 (also true/false, on/off; got "${env[name]}")`);
    return fallback;
  };
}

/**
 * Switches that were once settings of their own and are now pieces of SPEED_PLUMBING. Set, they
 * stop the start: ignored, an operator's `REST_DIRECT=0` would silently leave the piece on.
 */
const RETIRED_SWITCHES: Record<string, PlumbingPiece> = { GRAPHQL_DEDUP: 'inflight-dedup', REST_DIRECT: 'rest-direct', REST_COMPILED: 'rest-compiled' };

/** Adds a problem for each retired switch set in `env`, naming the SPEED_PLUMBING piece that replaced it. */
function reportRetiredSwitches(env: NodeJS.ProcessEnv, problems: string[]): void {
  for (const [name, piece] of Object.entries(RETIRED_SWITCHES)) {
    if (env[name] === undefined || env[name]!.trim() === '') continue;
    problems.push(`${name} is gone: use SPEED_PLUMBING=-${piece} to turn ${piece} off (it is on by default), and unset ${name}`);
  }
}

/** The edge's block of settings (issue 31: nothing is read before it is allowed, anonymous traffic has a budget). */
function readEdgeSettings(int: ReturnType<typeof intSetting>): EdgeSettings {
  const headersSeconds = int('HTTP_HEADERS_TIMEOUT_SECONDS', 10, 1, 300);
  return {
    publicBodyLimitBytes: int('PUBLIC_BODY_LIMIT_BYTES', 32 * 1024, 1024, 1024 * 1024),
    publicDocumentsPerWindow: int('PUBLIC_DOCUMENTS_PER_WINDOW', 0, 0, 10_000_000) || null,
    headersTimeoutMs: headersSeconds * 1000,
    // Node requires the headers' timeout to be the shorter one.
    requestTimeoutMs: Math.max(headersSeconds, int('HTTP_REQUEST_TIMEOUT_SECONDS', 60, 1, 3_600)) * 1000,
    maxConnectionsPerAddress: int('MAX_CONNECTIONS_PER_ADDRESS', 512, 0, 1_000_000),
  };
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
    graphql: {
      maxDepth: int('GRAPHQL_MAX_DEPTH', 10, 2, 100),
      maxAliases: int('GRAPHQL_MAX_ALIASES', 15, 0, 1_000),
      maxTokens: int('GRAPHQL_MAX_TOKENS', 1_000, 50, 100_000),
      maxDirectives: int('GRAPHQL_MAX_DIRECTIVES', 50, 0, 1_000),
      maxCost: int('GRAPHQL_MAX_COST', 5_000, 10, 10_000_000),
      maxListDepth: int('GRAPHQL_MAX_LIST_DEPTH', 3, 1, 100),
      maxResponseBytes: int('GRAPHQL_MAX_RESPONSE_BYTES', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
      maxStreamsPerTenant: int('GRAPHQL_MAX_STREAMS_PER_TENANT', 100, 1, 100_000),
      introspection: bool('GRAPHQL_INTROSPECTION', development),
      fieldSuggestions: bool('GRAPHQL_FIELD_SUGGESTIONS', development),
    },
    jobs: jobs.settings ?? { superviseSeconds: DEFAULT_SUPERVISE_SECONDS },
    edge: readEdgeSettings(int),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
