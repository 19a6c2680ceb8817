import { Migration } from '@mikro-orm/migrations';

/**
 * Retention (docs/audit.md, Retention): records older than the retention are removed a chain
 * prefix at a time by `audit.purge`, the only path past the append-only triggers, which leaves an
 * anchor (the last removed record's number and hash) so that the chain stays verifiable from there.
 * Anchors are append-only too. The chain trigger continues from the anchor when a purge removed
 * every record of a tenant.
 */
export class Migration20261227020000_audit_retention extends Migration {
  async up(): Promise<void> {
    this.addSql(`create table "audit"."anchors" (
      "tenant_id" uuid not null,
      "through_seq" bigint not null,
      "hash" bytea not null,
      "purged_at" timestamptz not null default now(),
      primary key ("tenant_id", "through_seq")
    );`);
    this.addSql(`create or replace function "audit"."refuse_change"() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' and tg_table_name = 'events' and current_setting('audit.purging', true) = 'on' then
          return old;
        end if;
        raise exception '%.% is append-only', tg_table_schema, tg_table_name using errcode = 'insufficient_privilege';
      end
    $$;`);
    this.addSql(`create trigger "anchors_append_only" before update or delete on "audit"."anchors" for each row execute function "audit"."refuse_change"();`);
    this.addSql(`create trigger "anchors_no_truncate" before truncate on "audit"."anchors" for each statement execute function "audit"."refuse_change"();`);
    this.addSql(`revoke update, delete, truncate on "audit"."anchors" from public;`);
    this.addSql(`create or replace function "audit"."chain"() returns trigger language plpgsql as $$
      declare last record;
      begin
        perform pg_advisory_xact_lock(hashtextextended('audit.events:' || new.tenant_id::text, 0));
        select e.seq, e.hash into last from "audit"."events" e where e.tenant_id = new.tenant_id order by e.seq desc limit 1;
        if last is null then
          select a.through_seq as seq, a.hash into last from "audit"."anchors" a where a.tenant_id = new.tenant_id order by a.through_seq desc limit 1;
        end if;
        new.seq := coalesce(last.seq, 0) + 1;
        new.prev_hash := coalesce(last.hash, decode(repeat('00', 32), 'hex'));
        new.hash := sha256(new.prev_hash || convert_to("audit"."canonical"(new), 'UTF8'));
        return new;
      end
    $$;`);
    // At least a year is always kept, whatever the caller asks: a slip in configuration cannot empty the trail.
    this.addSql(`create function "audit"."purge"(cutoff timestamptz) returns bigint language plpgsql as $$
      declare t record; removed bigint := 0; n bigint;
      begin
        if cutoff > now() - interval '365 days' then
          raise exception 'audit records are kept at least 365 days (cutoff %)', cutoff;
        end if;
        perform set_config('audit.purging', 'on', true);
        for t in select e.tenant_id, max(e.seq) as through from "audit"."events" e where e.occurred_at < cutoff group by e.tenant_id loop
          perform pg_advisory_xact_lock(hashtextextended('audit.events:' || t.tenant_id::text, 0));
          insert into "audit"."anchors" ("tenant_id", "through_seq", "hash")
            select t.tenant_id, t.through, e.hash from "audit"."events" e where e.tenant_id = t.tenant_id and e.seq = t.through;
          delete from "audit"."events" e where e.tenant_id = t.tenant_id and e.seq <= t.through;
          get diagnostics n = row_count;
          removed := removed + n;
        end loop;
        perform set_config('audit.purging', 'off', true);
        return removed;
      end
    $$;`);
  }

  async down(): Promise<void> {
    this.addSql(`drop function "audit"."purge"(timestamptz);`);
    this.addSql(`drop table "audit"."anchors";`);
  }
}
