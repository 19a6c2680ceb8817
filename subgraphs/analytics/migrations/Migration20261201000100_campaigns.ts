import { Migration } from '@mikro-orm/migrations';

/** Campaigns and the opportunities (leads) they bring in (contract part 4.5). */
export class Migration20261201000100_campaigns extends Migration {
  async up(): Promise<void> {
    this.addSql(`create schema if not exists "analytics";`);
    this.addSql(`create table "analytics"."campaigns" (
      "id" uuid primary key,
      "tenant_id" uuid not null,
      "name" text not null check (length(btrim("name")) > 0),
      "location_id" text null,
      "description" text null,
      "platform_id" text null,
      "platform_asset_id" text null,
      "external_campaign_id" text null,
      "external_resource_name" text null,
      "external_name" text null,
      "external_status" text null,
      "external_currency" text null,
      "external_daily_budget_cents" integer null,
      "external_lifetime_budget_cents" integer null,
      "external_last_seen_at" timestamptz null,
      "external_last_synced_at" timestamptz null,
      "external_stale_at" timestamptz null,
      "external_sync_error" text null,
      "is_active" boolean not null default true,
      "start_date" timestamptz null,
      "end_date" timestamptz null,
      "budget_cents" integer null check ("budget_cents" >= 0),
      "pipeline_id" text null,
      "webhook_key" text not null unique,
      "redirect_url" text null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      check ("end_date" is null or "start_date" is null or "end_date" >= "start_date"),
      unique ("tenant_id", "id")
    );`);
    this.addSql(`create index "campaigns_tenant_created_idx" on "analytics"."campaigns" ("tenant_id", "created_at");`);
    this.addSql(`create table "analytics"."opportunities" (
      "id" uuid primary key,
      "tenant_id" uuid not null,
      "campaign_id" uuid not null,
      "name" text null,
      "email" text null,
      "phone" text null,
      "source" jsonb not null default '{}',
      "status" text not null default 'NEW' check ("status" in ('NEW', 'CONTACTED', 'CONVERTED', 'LOST')),
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      foreign key ("tenant_id", "campaign_id") references "analytics"."campaigns" ("tenant_id", "id") on delete cascade
    );`);
    // Serves the grouped count behind opportunityCount / convertedCount without touching the rows.
    this.addSql(`create index "opportunities_tenant_campaign_status_idx" on "analytics"."opportunities" ("tenant_id", "campaign_id", "status");`);
  }

  async down(): Promise<void> {
    this.addSql(`drop table if exists "analytics"."opportunities";`);
    this.addSql(`drop table if exists "analytics"."campaigns";`);
  }
}
