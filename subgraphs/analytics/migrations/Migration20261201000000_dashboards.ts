import { Migration } from '@mikro-orm/migrations';

/** Dashboards and their widgets (contract part 4.2). */
export class Migration20261201000000_dashboards extends Migration {
  async up(): Promise<void> {
    this.addSql(`create schema if not exists "analytics";`);
    this.addSql(`create table "analytics"."dashboards" (
      "id" uuid primary key,
      "tenant_id" uuid not null,
      "name" text not null check (length(btrim("name")) > 0),
      "description" text null,
      "location_id" text null,
      "layout" jsonb not null default '{}',
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      -- The target of the widgets' composite foreign key: a widget can only sit on its own tenant's dashboard.
      unique ("tenant_id", "id")
    );`);
    this.addSql(`create index "dashboards_tenant_created_idx" on "analytics"."dashboards" ("tenant_id", "created_at");`);
    this.addSql(`create table "analytics"."widgets" (
      "id" uuid primary key,
      "tenant_id" uuid not null,
      "dashboard_id" uuid not null,
      "name" text not null check (length(btrim("name")) > 0),
      "chart_type" text not null check ("chart_type" in ('line', 'bar', 'area', 'pie', 'table', 'kpi')),
      "query" jsonb not null check (jsonb_typeof("query") = 'object'),
      "position_x" integer not null check ("position_x" >= 0),
      "position_y" integer not null check ("position_y" >= 0),
      "position_w" integer not null check ("position_w" >= 1),
      "position_h" integer not null check ("position_h" >= 1),
      "is_archived" boolean not null default false,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      -- Deleting a dashboard deletes its widgets in the same statement.
      foreign key ("tenant_id", "dashboard_id") references "analytics"."dashboards" ("tenant_id", "id") on delete cascade
    );`);
    this.addSql(`create index "widgets_tenant_dashboard_idx" on "analytics"."widgets" ("tenant_id", "dashboard_id");`);
  }

  async down(): Promise<void> {
    this.addSql(`drop table if exists "analytics"."widgets";`);
    this.addSql(`drop table if exists "analytics"."dashboards";`);
  }
}
