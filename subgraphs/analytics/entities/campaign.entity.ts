import { Entity, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/**
 * A marketing campaign (contract part 2, Campaign). The `external*` columns mirror the ad
 * platform's copy and are written only by a platform sync; `webhookKey` is the secret of the
 * campaign's public lead endpoint and is unique across tenants, so a lead finds its campaign by it.
 */
@Entity({ tableName: 'campaigns' })
export class Campaign extends TenantScopedEntity {
  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text', fieldName: 'location_id', nullable: true })
  locationId: string | null = null;

  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  @Property({ type: 'text', fieldName: 'platform_id', nullable: true })
  platformId: string | null = null;

  @Property({ type: 'text', fieldName: 'platform_asset_id', nullable: true })
  platformAssetId: string | null = null;

  @Property({ type: 'text', fieldName: 'external_campaign_id', nullable: true })
  externalCampaignId: string | null = null;

  @Property({ type: 'text', fieldName: 'external_resource_name', nullable: true })
  externalResourceName: string | null = null;

  @Property({ type: 'text', fieldName: 'external_name', nullable: true })
  externalName: string | null = null;

  @Property({ type: 'text', fieldName: 'external_status', nullable: true })
  externalStatus: string | null = null;

  @Property({ type: 'text', fieldName: 'external_currency', nullable: true })
  externalCurrency: string | null = null;

  @Property({ type: 'integer', fieldName: 'external_daily_budget_cents', nullable: true })
  externalDailyBudgetCents: number | null = null;

  @Property({ type: 'integer', fieldName: 'external_lifetime_budget_cents', nullable: true })
  externalLifetimeBudgetCents: number | null = null;

  @Property({ type: 'timestamptz', fieldName: 'external_last_seen_at', nullable: true })
  externalLastSeenAt: Date | null = null;

  @Property({ type: 'timestamptz', fieldName: 'external_last_synced_at', nullable: true })
  externalLastSyncedAt: Date | null = null;

  @Property({ type: 'timestamptz', fieldName: 'external_stale_at', nullable: true })
  externalStaleAt: Date | null = null;

  @Property({ type: 'text', fieldName: 'external_sync_error', nullable: true })
  externalSyncError: string | null = null;

  @Property({ type: 'boolean', fieldName: 'is_active' })
  isActive = true;

  @Property({ type: 'timestamptz', fieldName: 'start_date', nullable: true })
  startDate: Date | null = null;

  @Property({ type: 'timestamptz', fieldName: 'end_date', nullable: true })
  endDate: Date | null = null;

  @Property({ type: 'integer', fieldName: 'budget_cents', nullable: true })
  budgetCents: number | null = null;

  @Property({ type: 'text', fieldName: 'pipeline_id', nullable: true })
  pipelineId: string | null = null;

  @Property({ type: 'text', fieldName: 'webhook_key', unique: true })
  webhookKey!: string;

  @Property({ type: 'text', fieldName: 'redirect_url', nullable: true })
  redirectUrl: string | null = null;
}
