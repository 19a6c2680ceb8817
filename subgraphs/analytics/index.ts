import { createHealthResolver } from '../common/health.resolver';
import { migration } from '../../platform/orm';
import type { SubgraphDefinition } from '../../platform/subgraph-definition';
import { Campaign } from './entities/campaign.entity';
import { Dashboard } from './entities/dashboard.entity';
import { Opportunity } from './entities/opportunity.entity';
import { WidgetPosition } from './entities/widget-position.embeddable';
import { TenantTimeZone } from './entities/tenant-time-zone.entity';
import { Widget } from './entities/widget.entity';
import { Migration20261201000000_dashboards } from './migrations/Migration20261201000000_dashboards';
import { Migration20261201000100_campaigns } from './migrations/Migration20261201000100_campaigns';
import { Migration20261228000100_widget_time_zones } from './migrations/Migration20261228000100_widget_time_zones';
import { AnalyticsQueryResolver } from './resolvers/analytics-query.resolver';
import { CampaignLeadResolver } from './resolvers/campaign-lead.resolver';
import { CampaignResolver } from './resolvers/campaign.resolver';
import { DashboardResolver } from './resolvers/dashboard.resolver';
import { RevenueBreakdownResolver } from './resolvers/revenue-breakdown.resolver';
import { WidgetResolver } from './resolvers/widget.resolver';
import { seedAnalyticsDemo } from './seeder';
import { outboxMigration } from '../common/outbox/outbox.migration';
import { configureAnalytics, readAnalyticsSettings, type AnalyticsDeps, type AnalyticsSettings } from './analytics-deps';

/** The analytics subgraph: dashboards, widgets, the query engine, the revenue breakdown, campaigns and their opportunities (docs/decisions.md, Data ownership). */
export const analyticsSubgraph: SubgraphDefinition<AnalyticsSettings, AnalyticsDeps> = {
  name: 'analytics',
  schema: 'analytics',
  entities: [Dashboard, Widget, WidgetPosition, Campaign, Opportunity, TenantTimeZone],
  migrations: [
    migration('Migration20261201000000_dashboards', Migration20261201000000_dashboards),
    migration('Migration20261201000100_campaigns', Migration20261201000100_campaigns),
    migration('Migration20261204000100_outbox', outboxMigration('analytics')),
    migration('Migration20261228000100_widget_time_zones', Migration20261228000100_widget_time_zones),
  ],
  resolvers: [DashboardResolver, WidgetResolver, AnalyticsQueryResolver, RevenueBreakdownResolver, CampaignResolver, CampaignLeadResolver, createHealthResolver('analytics')],
  seedDemo: seedAnalyticsDemo,
  // ANALYTICS_STATEMENT_TIMEOUT_MS: how long one analytics statement may run; ANALYTICS_TENANT_CONCURRENCY,
  // ANALYTICS_CONCURRENCY, ANALYTICS_QUEUE_WAIT_MS: the fair queue of expensive reads (configure builds one per running copy).
  readSettings: readAnalyticsSettings,
  configure: configureAnalytics,
  fairQueues: (deps) => [deps.expensive],
  // Dashboard, widget and campaign lists, analytics queries and revenue aggregates may read a replica (DATABASE_REPLICA_URL).
  staleReads: true,
};
