import type { SubgraphContext } from '../common/context';
import type { Env, SettingsRead } from '../common/subgraph-definition';

/** The analytics subgraph's settings (its definition's `readSettings`). */
export interface AnalyticsSettings {
  /** ANALYTICS_STATEMENT_TIMEOUT_MS: longer-running analytics statements are cancelled and answered 422 "query too expensive". */
  statementTimeoutMs: number;
}

/** ANALYTICS_STATEMENT_TIMEOUT_MS unset. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;

/** Reads ANALYTICS_STATEMENT_TIMEOUT_MS (100 to 600000 ms, default 5000); a wrong value is a problem the config loader lists. */
export function readAnalyticsSettings(env: Env): SettingsRead<AnalyticsSettings> {
  const raw = env.ANALYTICS_STATEMENT_TIMEOUT_MS?.trim();
  if (!raw) return { settings: { statementTimeoutMs: DEFAULT_STATEMENT_TIMEOUT_MS }, problems: [] };
  const value = Number(raw);
  if (Number.isInteger(value) && value >= 100 && value <= 600_000) return { settings: { statementTimeoutMs: value }, problems: [] };
  return {
    settings: { statementTimeoutMs: DEFAULT_STATEMENT_TIMEOUT_MS },
    problems: [`ANALYTICS_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds from 100 to 600000 (got "${raw}")`],
  };
}

/** The analytics subgraph's collaborators: its statement timeout, per running subgraph (SubgraphDefinition.configure). */
export interface AnalyticsDeps {
  statementTimeoutMs: number;
}

/** The resolver context of the analytics subgraph. */
export type AnalyticsContext = SubgraphContext<AnalyticsDeps>;

/** The deps from the settings. */
export function configureAnalytics(settings: AnalyticsSettings | undefined): AnalyticsDeps {
  return { statementTimeoutMs: settings?.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS };
}
