import { Migration } from '@mikro-orm/migrations';

/** Tenant address, settings and logos; the assets store; the webhook configuration (issue 3). */
export class Migration20261201000000_profile_assets_webhooks extends Migration {
  async up(): Promise<void> {
    this.addSql(`alter table "tenant"."tenants"
      add column "address_line1" text null,
      add column "address_line2" text null,
      add column "address_city" text null,
      add column "address_state" text null,
      add column "address_postal_code" text null,
      add column "address_country" text null,
      add column "settings" jsonb not null default '{}',
      add column "logo_asset_id" uuid null,
      add column "receipt_logo_asset_id" uuid null;`);
    this.addSql(`create table "tenant"."assets" (
      "id" uuid primary key,
      "tenant_id" uuid not null references "tenant"."tenants" ("id") on delete cascade,
      "sha256" text not null,
      "content_type" text not null,
      "byte_size" integer not null,
      "data" bytea not null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "assets_tenant_id_sha256_unique" unique ("tenant_id", "sha256")
    );`);
    this.addSql(`alter table "tenant"."tenants"
      add constraint "tenants_logo_asset_id_foreign" foreign key ("logo_asset_id") references "tenant"."assets" ("id") on delete set null,
      add constraint "tenants_receipt_logo_asset_id_foreign" foreign key ("receipt_logo_asset_id") references "tenant"."assets" ("id") on delete set null;`);
    this.addSql(`create table "tenant"."webhook_configs" (
      "id" uuid primary key,
      "tenant_id" uuid not null unique references "tenant"."tenants" ("id") on delete cascade,
      "url" text null,
      "enabled" boolean not null default false,
      "events" text[] not null default '{}',
      "secret" text not null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
  }

  async down(): Promise<void> {
    this.addSql(`drop table if exists "tenant"."webhook_configs";`);
    this.addSql(`alter table "tenant"."tenants" drop constraint if exists "tenants_logo_asset_id_foreign", drop constraint if exists "tenants_receipt_logo_asset_id_foreign";`);
    this.addSql(`drop table if exists "tenant"."assets";`);
    this.addSql(`alter table "tenant"."tenants"
      drop column "address_line1", drop column "address_line2", drop column "address_city", drop column "address_state",
      drop column "address_postal_code", drop column "address_country", drop column "settings",
      drop column "logo_asset_id", drop column "receipt_logo_asset_id";`);
  }
}
