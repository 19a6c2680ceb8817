import { Migration } from '@mikro-orm/migrations';

/** The practice directory: locations, providers (and where they work), patients (issue 3). */
export class Migration20261201000100_directory extends Migration {
  async up(): Promise<void> {
    this.addSql(`create table "tenant"."locations" (
      "id" uuid primary key,
      "tenant_id" uuid not null references "tenant"."tenants" ("id") on delete cascade,
      "name" text not null,
      "is_virtual" boolean not null default false,
      "address_line_one" text null,
      "address_line_two" text null,
      "city" text null,
      "state" text null,
      "zip_code" text null,
      "country" text null,
      "partner_location_id" text null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
    this.addSql(`create index "locations_tenant_id_name_idx" on "tenant"."locations" ("tenant_id", "name");`);
    this.addSql(`create table "tenant"."providers" (
      "id" uuid primary key,
      "tenant_id" uuid not null references "tenant"."tenants" ("id") on delete cascade,
      "first_name" text not null,
      "last_name" text not null,
      "title" text null,
      "email" text null,
      "phone" text null,
      "npi" text null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
    this.addSql(`create index "providers_tenant_id_last_name_first_name_idx" on "tenant"."providers" ("tenant_id", "last_name", "first_name");`);
    this.addSql(`create table "tenant"."provider_locations" (
      "provider_id" uuid not null references "tenant"."providers" ("id") on delete cascade,
      "location_id" uuid not null references "tenant"."locations" ("id") on delete cascade,
      primary key ("provider_id", "location_id")
    );`);
    this.addSql(`create index "provider_locations_location_id_idx" on "tenant"."provider_locations" ("location_id");`);
    this.addSql(`create table "tenant"."patients" (
      "id" uuid primary key,
      "tenant_id" uuid not null references "tenant"."tenants" ("id") on delete cascade,
      "first_name" text not null,
      "last_name" text not null,
      "email" text null,
      "phone" text null,
      "date_of_birth" date null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
    this.addSql(`create index "patients_tenant_id_last_name_first_name_index" on "tenant"."patients" ("tenant_id", "last_name", "first_name");`);
  }

  async down(): Promise<void> {
    this.addSql(`drop table if exists "tenant"."patients";`);
    this.addSql(`drop table if exists "tenant"."provider_locations";`);
    this.addSql(`drop table if exists "tenant"."providers";`);
    this.addSql(`drop table if exists "tenant"."locations";`);
  }
}
