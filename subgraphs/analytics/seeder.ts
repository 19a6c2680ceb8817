import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../platform/tenant-scope';
import type { OpportunityStatus } from './entities/opportunity.entity';
import { CampaignRepository } from './repositories/campaign.repository';
import { DashboardRepository } from './repositories/dashboard.repository';
import { WidgetRepository } from './repositories/widget.repository';
import { newWebhookKey } from './services/campaign.service';
import { ChartType } from './types/enums';

const DAY = 86_400_000;

/** Widgets over the `revenue` cube the query engine will serve, in Cube's REST query shape; the first dashboard shows every chart type (the console's demo). */
const DASHBOARDS: { name: string; description: string; widgets: { name: string; chartType: ChartType; query: Record<string, unknown>; position: { x: number; y: number; w: number; h: number } }[] }[] = [
  {
    name: 'Revenue overview',
    description: 'Net revenue month by month and where it comes from',
    widgets: [
      { name: 'Net revenue this year', chartType: ChartType.KPI, position: { x: 0, y: 0, w: 4, h: 2 }, query: { measures: ['revenue.netAmount'], timeDimensions: [{ dimension: 'revenue.createdAt', dateRange: 'this year' }] } },
      { name: 'Net revenue by month', chartType: ChartType.LINE, position: { x: 4, y: 0, w: 8, h: 4 }, query: { measures: ['revenue.netAmount'], timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'month', dateRange: 'last 12 months' }] } },
      { name: 'Sales this month', chartType: ChartType.KPI, position: { x: 0, y: 2, w: 4, h: 2 }, query: { measures: ['revenue.count'], timeDimensions: [{ dimension: 'revenue.createdAt', dateRange: 'this month' }] } },
      { name: 'Revenue by item category', chartType: ChartType.PIE, position: { x: 0, y: 4, w: 6, h: 4 }, query: { measures: ['revenue.netAmount'], dimensions: ['revenue.itemCategory'], order: { 'revenue.netAmount': 'desc' } } },
      { name: 'Net revenue by location', chartType: ChartType.BAR, position: { x: 6, y: 4, w: 6, h: 4 }, query: { measures: ['revenue.netAmount'], dimensions: ['revenue.location'], order: { 'revenue.netAmount': 'desc' } } },
      { name: 'Gross and discounts by quarter', chartType: ChartType.AREA, position: { x: 0, y: 8, w: 6, h: 4 }, query: { measures: ['revenue.grossAmount', 'revenue.discountAmount'], timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'quarter', dateRange: 'last 8 quarters' }] } },
      { name: 'Top items this year', chartType: ChartType.TABLE, position: { x: 6, y: 8, w: 6, h: 4 }, query: { measures: ['revenue.netAmount', 'revenue.count'], dimensions: ['revenue.itemName'], timeDimensions: [{ dimension: 'revenue.createdAt', dateRange: 'this year' }], order: { 'revenue.netAmount': 'desc' }, limit: 10 } },
    ],
  },
  {
    name: 'Providers',
    description: 'Who brings in what',
    widgets: [
      { name: 'Net revenue by provider', chartType: ChartType.BAR, position: { x: 0, y: 0, w: 8, h: 4 }, query: { measures: ['revenue.netAmount', 'revenue.count'], dimensions: ['revenue.provider'], order: { 'revenue.netAmount': 'desc' }, limit: 10 } },
      { name: 'Average ticket by month', chartType: ChartType.AREA, position: { x: 8, y: 0, w: 4, h: 4 }, query: { measures: ['revenue.averageNet'], timeDimensions: [{ dimension: 'revenue.createdAt', granularity: 'month' }] } },
    ],
  },
  {
    name: 'Discounts',
    description: 'What discounts cost, by payment medium',
    widgets: [
      { name: 'Discounts by payment medium', chartType: ChartType.TABLE, position: { x: 0, y: 0, w: 12, h: 4 }, query: { measures: ['revenue.discountAmount', 'revenue.grossAmount'], dimensions: ['revenue.paymentMedium'], timezone: 'America/New_York' } },
    ],
  },
];

/** Three campaigns; each lead's status, so that some are converted. */
const CAMPAIGNS: { name: string; description: string; platformId: string; isActive: boolean; days: [number, number]; budgetCents: number; leads: OpportunityStatus[] }[] = [
  { name: 'Spring physio check-up', description: 'Search ads for the spring check-up offer', platformId: 'google-ads', isActive: true, days: [-30, 60], budgetCents: 250_000, leads: ['NEW', 'NEW', 'CONTACTED', 'CONVERTED', 'CONVERTED', 'LOST'] },
  { name: 'New patient welcome', description: 'Social ads for first visits', platformId: 'meta-ads', isActive: true, days: [-90, 90], budgetCents: 120_000, leads: ['NEW', 'CONTACTED', 'CONVERTED'] },
  { name: 'Winter flu clinic', description: 'Last season, finished', platformId: 'google-ads', isActive: false, days: [-200, -120], budgetCents: 80_000, leads: ['CONVERTED', 'LOST', 'LOST', 'CONVERTED'] },
];

/** Demo data for a new tenant: dashboards with widgets, and campaigns with leads (some converted). */
export async function seedAnalyticsDemo(em: EntityManager, scope: TenantScope): Promise<void> {
  const now = Date.now();
  const dashboardRepository = new DashboardRepository(em, scope);
  const campaignRepository = new CampaignRepository(em, scope);
  const widgets = new WidgetRepository(em, scope);
  const dashboards = DASHBOARDS.map((spec) => ({ spec, dashboard: dashboardRepository.add({ name: spec.name, description: spec.description, layout: { columns: 12, rowHeight: 80 } }) }));
  const campaigns = CAMPAIGNS.map((spec) => ({
    spec,
    campaign: campaignRepository.add({
      name: spec.name,
      description: spec.description,
      platformId: spec.platformId,
      isActive: spec.isActive,
      startDate: new Date(now + spec.days[0] * DAY),
      endDate: new Date(now + spec.days[1] * DAY),
      budgetCents: spec.budgetCents,
      webhookKey: newWebhookKey(),
      redirectUrl: 'https://clinic.example.com/thank-you',
    }),
  }));
  // Parents first: the ORM knows no relation between these entities (plain id columns), so it
  // cannot order the inserts for the foreign keys itself. Both saves share the seeding transaction.
  await campaignRepository.save();
  // Issue 34: each widget stores its zone (the tenant's unless it names one), as a new widget does.
  const timezone = await widgets.tenantTimeZone();
  for (const { spec, dashboard } of dashboards) {
    for (const widget of spec.widgets) widgets.add({ dashboardId: dashboard.id, ...widget, query: { timezone, ...widget.query } });
  }
  for (const { spec, campaign } of campaigns) {
    spec.leads.forEach((status, i) =>
      campaignRepository.addOpportunity({ campaignId: campaign.id, name: `Demo lead ${i + 1}`, email: `lead${i + 1}@example.com`, status, source: { form: 'demo' } }),
    );
  }
  await campaignRepository.save();
}
