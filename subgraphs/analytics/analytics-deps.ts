import type { SubgraphContext } from '../../platform/context';
import { FairShare } from '../../platform/fair-share';
import { DEFAULT_POOL_MAX } from '../../platform/orm';
import type { Env, SettingsRead } from '../../platform/subgraph-definition';

/** The analytics subgraph's settings (its definition's `readSettings`). */
export interface AnalyticsSettings {
  /** ANALYTICS_STATEMENT_TIMEOUT_MS: longer-running analytics statements are cancelled and answered 422 "query too expensive". */
  statementTimeoutMs: number;
  /** ANALYTICS_TENANT_CONCURRENCY: analytics queries and revenue aggregates one tenant runs at once. */
  tenantConcurrency: number;
  /** ANALYTICS_CONCURRENCY: the same, every tenant together, per process. */
  concurrency: number;
  /** ANALYTICS_QUEUE_WAIT_MS: how long one waits for its turn before it is a 429. */
  queueWaitMs: number;
}

/** ANALYTICS_STATEMENT_TIMEOUT_MS unset. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;

/** ANALYTICS_TENANT_CONCURRENCY unset: two at once lets a dashboard's widgets overlap, and keeps one tenant to a fraction of the pool. */
export const DEFAULT_TENANT_CONCURRENCY = 2;

/** ANALYTICS_QUEUE_WAIT_MS unset: a unit admitted within this finishes in about a statement timeout more. */
export const DEFAULT_QUEUE_WAIT_MS = 3_000;

/** Units one tenant may have waiting: 15 aliases of a request, and a few requests more. */
export const TENANT_QUEUE_MAX = 64;

/** Connections of the pool left to the subgraph's other work (dashboards, campaigns) when ANALYTICS_CONCURRENCY is unset. */
const POOL_HEADROOM = 2;

/** ANALYTICS_CONCURRENCY unset: the ORM pool's size (DB_POOL_MAX, as the process's loader reads it) less the headroom. */
export function defaultConcurrency(poolMax: number): number {
  return Math.max(1, poolMax - POOL_HEADROOM);
}

/**
 * Reads the analytics settings: ANALYTICS_STATEMENT_TIMEOUT_MS (100 to 600000 ms, default 5000),
 * ANALYTICS_TENANT_CONCURRENCY (1 to 1000, default 2), ANALYTICS_CONCURRENCY (1 to 1000, default
 * the pool size DB_POOL_MAX less 2) and ANALYTICS_QUEUE_WAIT_MS (1 to 60000, default 3000); every
 * wrong value is a problem the config loader lists.
 */
export function readAnalyticsSettings(env: Env): SettingsRead<AnalyticsSettings> {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number, unit: string): number => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const value = Number(raw);
    if (Number.isInteger(value) && value >= min && value <= max) return value;
    problems.push(`${name} must be a whole number${unit} from ${min} to ${max} (got "${raw}")`);
    return fallback;
  };
  // DB_POOL_MAX itself is checked by the process's loader; here it only sizes the default.
  const poolMax = Number(env.DB_POOL_MAX?.trim() || DEFAULT_POOL_MAX);
  const settings: AnalyticsSettings = {
    statementTimeoutMs: int('ANALYTICS_STATEMENT_TIMEOUT_MS', DEFAULT_STATEMENT_TIMEOUT_MS, 100, 600_000, ' of milliseconds'),
    tenantConcurrency: int('ANALYTICS_TENANT_CONCURRENCY', DEFAULT_TENANT_CONCURRENCY, 1, 1_000, ''),
    concurrency: int('ANALYTICS_CONCURRENCY', defaultConcurrency(Number.isInteger(poolMax) && poolMax > 0 ? poolMax : DEFAULT_POOL_MAX), 1, 1_000, ''),
    queueWaitMs: int('ANALYTICS_QUEUE_WAIT_MS', DEFAULT_QUEUE_WAIT_MS, 1, 60_000, ' of milliseconds'),
  };
  return { settings, problems };
}

/** The analytics subgraph's collaborators, per running subgraph (SubgraphDefinition.configure). */
export interface AnalyticsDeps {
  statementTimeoutMs: number;
  /** The fair queue every analytics query and revenue aggregate runs under, keyed by tenant. */
  expensive: FairShare;
}

/** The resolver context of the analytics subgraph. */
export type AnalyticsContext = SubgraphContext<AnalyticsDeps>;

/** The deps from the settings: a fair queue of its own for this running copy. */
export function configureAnalytics(settings: Partial<AnalyticsSettings> | undefined): AnalyticsDeps {
  return {
    statementTimeoutMs: settings?.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    expensive: new FairShare('analytics', {
      perKey: settings?.tenantConcurrency ?? DEFAULT_TENANT_CONCURRENCY,
      total: settings?.concurrency ?? defaultConcurrency(DEFAULT_POOL_MAX),
      maxWaitMs: settings?.queueWaitMs ?? DEFAULT_QUEUE_WAIT_MS,
      maxQueuedPerKey: TENANT_QUEUE_MAX,
    }),
  };
}
