import { Migration } from '@mikro-orm/migrations';
import type { Constructor } from '@mikro-orm/core';

/** Makes the migration that creates `<schema>.outbox_events`; each subgraph lists it once. */
export function outboxMigration(schema: string): Constructor<Migration> {
  return class OutboxMigration extends Migration {
    async up(): Promise<void> {
      this.addSql(`create schema if not exists "${schema}";`);
      this.addSql(`create table "${schema}"."outbox_events" (
        "id" uuid primary key,
        "tenant_id" uuid not null,
        "type" text not null,
        "data" jsonb not null,
        "occurred_at" timestamptz not null default now(),
        "relayed_at" timestamptz null
      );`);
      // The dispatcher scans only what it has not relayed yet.
      this.addSql(`create index "outbox_events_unrelayed_idx" on "${schema}"."outbox_events" ("occurred_at") where "relayed_at" is null;`);
    }

    async down(): Promise<void> {
      this.addSql(`drop table if exists "${schema}"."outbox_events";`);
    }
  };
}
