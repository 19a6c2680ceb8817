import { Migration } from '@mikro-orm/migrations';

/** Columns shared by both kinds of revenue line; names were snapshotted from the directory at sale time. */
const LINE_COLUMNS = `
      "id" uuid primary key,
      "tenant_id" uuid not null,
      "location_id" uuid not null,
      "location_name" text not null,
      "provider_id" uuid null,
      "provider_name" text null,
      "patient_id" uuid null,
      "patient_name" text null,
      "item_category" text not null,
      "item_type" text not null,
      "item_name" text not null,
      "payment_medium" text not null,
      "gross_cents" integer not null check ("gross_cents" >= 0),
      "discount_cents" integer not null default 0 check ("discount_cents" >= 0 and "discount_cents" <= "gross_cents"),
      "net_cents" integer not null,
      "comment" text null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      check ("net_cents" = "gross_cents" - "discount_cents")`;

/** The view's select list; analytics reads exactly these column names (issue 4: keep them). */
const VIEW_COLUMNS = `tenant_id, id, %SOURCE% as source, location_id, location_name, provider_id, provider_name, patient_id, patient_name,
      item_category, item_type, item_name, payment_medium, gross_cents, discount_cents, net_cents, comment, created_at`;

/**
 * Charge items (product and service sales) and sold packages, and `billing.revenue_line`, the
 * read-only reporting view analytics reads instead of the tables (docs/decisions.md, Data ownership). Both
 * tables are indexed on (tenant_id, created_at) and (tenant_id, location_id, created_at); the
 * planner pushes a view filter down into each branch of the `union all`.
 */
export class Migration20261203000300_revenue extends Migration {
  async up(): Promise<void> {
    this.addSql(`create table "billing"."charge_items" (${LINE_COLUMNS}
    );`);
    this.addSql(`create table "billing"."sold_packages" (${LINE_COLUMNS},
      "session_count" integer null check ("session_count" > 0)
    );`);
    for (const table of ['charge_items', 'sold_packages']) {
      this.addSql(`create index "${table}_tenant_created_idx" on "billing"."${table}" ("tenant_id", "created_at");`);
      this.addSql(`create index "${table}_tenant_location_created_idx" on "billing"."${table}" ("tenant_id", "location_id", "created_at");`);
    }
    this.addSql(`alter table "billing"."gift_cards" add constraint "gift_cards_charge_item_fk" foreign key ("charge_item_id") references "billing"."charge_items" ("id");`);
    this.addSql(`create view "billing"."revenue_line" as
      select ${VIEW_COLUMNS.replace('%SOURCE%', "'charge_item'::text")} from "billing"."charge_items"
      union all
      select ${VIEW_COLUMNS.replace('%SOURCE%', "'sold_package'::text")} from "billing"."sold_packages";`);
  }

  async down(): Promise<void> {
    this.addSql(`drop view if exists "billing"."revenue_line";`);
    this.addSql(`alter table "billing"."gift_cards" drop constraint if exists "gift_cards_charge_item_fk";`);
    this.addSql(`drop table if exists "billing"."sold_packages";`);
    this.addSql(`drop table if exists "billing"."charge_items";`);
  }
}
