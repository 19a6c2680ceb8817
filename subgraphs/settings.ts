import type { Env, SettingsRead, SubgraphName } from '../platform/subgraph-definition';
import { readAnalyticsSettings } from './analytics/analytics-deps';
import { readMailSettings } from './common/mail/mail-settings';
import { readLlmSettings } from './notes/providers/llm-settings';
import { readTenantSubgraphSettings } from './tenant/subgraph-settings';

/** Reads one subgraph's own settings from the environment, every problem listed. */
export type SubgraphSettingsReader = (env: Env) => SettingsRead<unknown>;

/**
 * Each subgraph's settings reader, the same one its definition carries, without loading its
 * resolvers: the gateway's configuration loader reads these before anything else is imported
 * (type-graphql's decorators need `reflect-metadata` first, which entry points load, loaders not).
 */
export const SUBGRAPH_SETTINGS: Readonly<Record<SubgraphName, SubgraphSettingsReader>> = {
  tenant: readTenantSubgraphSettings,
  billing: readMailSettings,
  analytics: readAnalyticsSettings,
  notes: readLlmSettings,
};
