import { Migration } from '@mikro-orm/migrations';

/** The webhook delivery log: one row per event sent to a tenant's endpoint, and every attempt (issue 7). */
export class Migration20261204000000_webhook_deliveries extends Migration {
  async up(): Promise<void> {
    this.addSql(`create table "tenant"."webhook_deliveries" (
      "id" uuid primary key,
      "tenant_id" uuid not null references "tenant"."tenants" ("id") on delete cascade,
      "event_type" text not null,
      "payload" text not null,
      "status" text not null check ("status" in ('pending', 'delivered', 'failed')),
      "attempt_count" int not null default 0,
      "next_attempt_at" timestamptz not null,
      "locked_until" timestamptz null,
      "last_status" int null,
      "last_error" text null,
      "delivered_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
    this.addSql(`create index "webhook_deliveries_due_idx" on "tenant"."webhook_deliveries" ("next_attempt_at") where "status" = 'pending';`);
    this.addSql(`create index "webhook_deliveries_tenant_created_idx" on "tenant"."webhook_deliveries" ("tenant_id", "created_at" desc);`);
    this.addSql(`create table "tenant"."webhook_attempts" (
      "id" uuid primary key default gen_random_uuid(),
      "delivery_id" uuid not null references "tenant"."webhook_deliveries" ("id") on delete cascade,
      "tenant_id" uuid not null,
      "attempt_number" int not null,
      "attempted_at" timestamptz not null default now(),
      "status_code" int null,
      "duration_ms" int not null,
      "error" text null
    );`);
    this.addSql(`create index "webhook_attempts_delivery_idx" on "tenant"."webhook_attempts" ("delivery_id", "attempted_at");`);
  }

  async down(): Promise<void> {
    this.addSql(`drop table if exists "tenant"."webhook_attempts";`);
    this.addSql(`drop table if exists "tenant"."webhook_deliveries";`);
  }
}
