import { Migration } from '@mikro-orm/migrations';

/** Stored responses of idempotent REST requests (the `Idempotency-Key` header). */
export class Migration20261122010000_idempotency extends Migration {
  async up(): Promise<void> {
    this.addSql(`create schema if not exists "gateway";`);
    this.addSql(`create table "gateway"."idempotency_keys" (
      "tenant_id" uuid not null,
      "key" text not null,
      "fingerprint" text not null,
      "state" text not null check ("state" in ('in_progress', 'completed')),
      "status" int null,
      "body" text null,
      "created_at" timestamptz not null default now(),
      "locked_until" timestamptz not null,
      primary key ("tenant_id", "key")
    );`);
    this.addSql(`create index "idempotency_keys_created_at_idx" on "gateway"."idempotency_keys" ("created_at");`);
  }

  async down(): Promise<void> {
    this.addSql(`drop table if exists "gateway"."idempotency_keys";`);
  }
}
