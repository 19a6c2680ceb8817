import { Migration } from '@mikro-orm/migrations';

/** Tenants and their API keys. */
export class Migration20261122000000_init extends Migration {
  async up(): Promise<void> {
    this.addSql(`create schema if not exists "tenant";`);
    this.addSql(`create table "tenant"."tenants" (
      "id" uuid primary key,
      "name" text not null,
      "legal_name" text null,
      "timezone" text not null default 'UTC',
      "locale" text not null default 'en-US',
      "currency" text not null default 'USD',
      "website" text null,
      "phone" text null,
      "contact_email" text null,
      "primary_color" text null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
    this.addSql(`create table "tenant"."api_keys" (
      "id" uuid primary key,
      "tenant_id" uuid not null references "tenant"."tenants" ("id") on delete cascade,
      "lookup_id" text not null unique,
      "secret_hash" bytea not null,
      "name" text null,
      "revoked_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
    this.addSql(`create index "api_keys_tenant_id_idx" on "tenant"."api_keys" ("tenant_id");`);
  }

  async down(): Promise<void> {
    this.addSql(`drop table if exists "tenant"."api_keys";`);
    this.addSql(`drop table if exists "tenant"."tenants";`);
  }
}
