import { Migration } from '@mikro-orm/migrations';

/**
 * The audit trail (docs/audit.md): one append-only table, hash-chained per tenant by the database
 * itself, so every writer (any subgraph, process or host) extends the same chain. The chain
 * trigger takes a per-tenant transaction lock, numbers the record and hashes it over its
 * predecessor's hash; update, delete and truncate are refused by triggers, which bind the table's
 * owner and superusers too (privileges alone would not: the application often connects as one).
 */
export class Migration20261227010000_audit_events extends Migration {
  async up(): Promise<void> {
    this.addSql(`create table "audit"."events" (
      "id" uuid primary key,
      "tenant_id" uuid not null,
      "seq" bigint not null,
      "occurred_at" timestamptz not null,
      "actor_kind" text not null,
      "actor_id" text null,
      "action" text not null,
      "resource_type" text not null,
      "resource_ids" text[] not null default '{}',
      "outcome" text not null,
      "request_id" text null,
      "client_address" text null,
      "prev_hash" bytea not null,
      "hash" bytea not null,
      constraint "events_tenant_seq_unique" unique ("tenant_id", "seq")
    );`);
    this.addSql(`create index "events_tenant_time_idx" on "audit"."events" ("tenant_id", "occurred_at");`);
    this.addSql(`create index "events_resource_ids_idx" on "audit"."events" using gin ("resource_ids");`);
    // The text a record's hash covers; audit-chain.ts computes the same in TypeScript to verify.
    this.addSql(`create function "audit"."canonical"(e "audit"."events") returns text language sql immutable as $$
      select concat_ws(E'\\x1f', e.id::text, e.tenant_id::text, e.seq::text,
        to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        e.actor_kind, coalesce(e.actor_id, ''), e.action, e.resource_type,
        array_to_string(e.resource_ids, E'\\x1e'), e.outcome, coalesce(e.request_id, ''), coalesce(e.client_address, ''))
    $$;`);
    this.addSql(`create function "audit"."chain"() returns trigger language plpgsql as $$
      declare last record;
      begin
        perform pg_advisory_xact_lock(hashtextextended('audit.events:' || new.tenant_id::text, 0));
        select e.seq, e.hash into last from "audit"."events" e where e.tenant_id = new.tenant_id order by e.seq desc limit 1;
        new.seq := coalesce(last.seq, 0) + 1;
        new.prev_hash := coalesce(last.hash, decode(repeat('00', 32), 'hex'));
        new.hash := sha256(new.prev_hash || convert_to("audit"."canonical"(new), 'UTF8'));
        return new;
      end
    $$;`);
    this.addSql(`create trigger "events_chain" before insert on "audit"."events" for each row execute function "audit"."chain"();`);
    this.addSql(`create function "audit"."refuse_change"() returns trigger language plpgsql as $$
      begin
        raise exception 'audit.events is append-only' using errcode = 'insufficient_privilege';
      end
    $$;`);
    this.addSql(`create trigger "events_append_only" before update or delete on "audit"."events" for each row execute function "audit"."refuse_change"();`);
    this.addSql(`create trigger "events_no_truncate" before truncate on "audit"."events" for each statement execute function "audit"."refuse_change"();`);
    this.addSql(`revoke update, delete, truncate on "audit"."events" from public;`);
  }

  async down(): Promise<void> {
    this.addSql(`drop table "audit"."events";`);
    this.addSql(`drop function "audit"."chain"(); drop function "audit"."refuse_change"(); drop function "audit"."canonical"("audit"."events");`);
  }
}
