import { Migration } from '@mikro-orm/migrations';

/**
 * The rollups: each sums a tenant's revenue lines per UTC hour and a few dimension columns, and
 * counts the sold packages among them (the summary's split by source). Chosen from measurement
 * (docs/decisions.md, "Revenue rollups"): one narrow rollup per grouping dimension of the
 * breakdown, since a rollup over every dimension barely compresses; only the smallest is also
 * keyed by source, which doubled the others' rows for little use.
 */
const ROLLUPS: { name: string; columns: string[] }[] = [
  { name: 'total', columns: ['source'] },
  { name: 'location', columns: ['location_id', 'location_name'] },
  { name: 'provider', columns: ['provider_id', 'provider_name'] },
  { name: 'item_category', columns: ['item_category'] },
  { name: 'payment_medium', columns: ['payment_medium'] },
];

const COLUMN_TYPES: Record<string, string> = {
  source: 'text not null',
  location_id: 'uuid not null',
  location_name: 'text not null',
  provider_id: 'uuid null',
  provider_name: 'text null',
  item_category: 'text not null',
  payment_medium: 'text not null',
};

const keyOf = (columns: string[]) => ['tenant_id', 'hour', ...columns];
const list = (columns: string[]) => columns.join(', ');

/** Sums of the lines of `from` per rollup key; `source` is how a line's source reads there (a column, or the trigger's table). */
function aggregate(columns: string[], from: string, source = 'source'): string {
  const dims = columns.map((c) => (c === 'source' ? `${source} as source` : c));
  return `select tenant_id, date_bin('1 hour', created_at, '2000-01-01 00:00:00+00') as hour${dims.map((d) => `, ${d}`).join('')},
      count(*), count(*) filter (where ${source} = 'sold_package'), sum(gross_cents), sum(discount_cents), sum(net_cents), min(created_at), max(created_at)
    from ${from} group by ${keyOf(columns).map((_, i) => i + 1).join(', ')}`;
}

const TOTALS = 'line_count, package_count, gross_cents, discount_cents, net_cents, first_at, last_at';

/** Adds new lines' sums to the rollup; rows come in key order so concurrent writers lock in one order. */
function upsert(rollup: { name: string; columns: string[] }): string {
  const key = keyOf(rollup.columns);
  return `insert into billing.revenue_rollup_${rollup.name} as r (${list(key)}, ${TOTALS})
      ${aggregate(rollup.columns, 'new_rows', 'src')} order by ${key.map((_, i) => i + 1).join(', ')}
    on conflict (${list(key)}) do update set line_count = r.line_count + excluded.line_count, package_count = r.package_count + excluded.package_count,
      gross_cents = r.gross_cents + excluded.gross_cents,
      discount_cents = r.discount_cents + excluded.discount_cents, net_cents = r.net_cents + excluded.net_cents,
      first_at = least(r.first_at, excluded.first_at), last_at = greatest(r.last_at, excluded.last_at);`;
}

/** Rebuilds one rollup's hours [p_from, p_to) of one tenant from the lines. */
function recompute(rollup: { name: string; columns: string[] }): string {
  const lines = `(select * from billing.revenue_line where tenant_id = p_tenant and created_at >= p_from and created_at < p_to) l`;
  return `delete from billing.revenue_rollup_${rollup.name} where tenant_id = p_tenant and hour >= p_from and hour < p_to;
        insert into billing.revenue_rollup_${rollup.name} (${list(keyOf(rollup.columns))}, ${TOTALS}) ${aggregate(rollup.columns, lines)};`;
}

/**
 * One row per key (a line without a provider: the key with a null provider; nulls not distinct is
 * PostgreSQL 15's). The totals ride in the index, so a range of hours is an index-only scan of
 * adjacent pages: rollup rows land on heap pages in the order lines arrive, every tenant's hours
 * mixed, and reading them through the heap measured 3-10x slower.
 */
const keyIndex = (rollup: { name: string; columns: string[] }) =>
  `create unique index "revenue_rollup_${rollup.name}_key" on "billing"."revenue_rollup_${rollup.name}" (${list(keyOf(rollup.columns))})
        include (${TOTALS}) nulls not distinct;`;

/** Rebuilds one rollup from every line; its index is built after the rows, which is several times faster than row by row. */
function rebuild(rollup: { name: string; columns: string[] }): string {
  return `if p_name is null or p_name = '${rollup.name}' then
          truncate billing.revenue_rollup_${rollup.name};
          drop index billing.revenue_rollup_${rollup.name}_key;
          insert into billing.revenue_rollup_${rollup.name} (${list(keyOf(rollup.columns))}, ${TOTALS}) ${aggregate(rollup.columns, 'billing.revenue_line')};
          ${keyIndex(rollup)}
        end if;`;
}

/**
 * Pre-aggregated revenue (issue 21, part 3): `billing.revenue_rollup_<name>` tables summing the
 * lines per tenant, UTC hour and dimensions, kept current in the same transaction as the
 * lines by statement-level triggers on both line tables, and published to analytics as the
 * read-only views `billing.revenue_hourly_<name>` (docs/decisions.md, Data ownership). Inserts add
 * their sums (the application only ever inserts lines); updates, deletes and truncation recompute
 * the hours they touch from the lines, since a minimum or maximum cannot be subtracted.
 * `billing.recompute_revenue_rollups(tenant, from, to)` rebuilds a tenant's hours and
 * `billing.rebuild_revenue_rollups(name)` one rollup (null: every one), for bulk loads that run
 * with the insert trigger off.
 * Existing lines are rolled up here.
 */
export class Migration20261215000000_revenue_rollups extends Migration {
  async up(): Promise<void> {
    for (const rollup of ROLLUPS) {
      const dims = rollup.columns.map((c) => `"${c}" ${COLUMN_TYPES[c]},`).join('\n        ');
      this.addSql(`create table "billing"."revenue_rollup_${rollup.name}" (
        "tenant_id" uuid not null,
        "hour" timestamptz not null,
        ${dims}
        "line_count" bigint not null,
        "package_count" bigint not null,
        "gross_cents" bigint not null,
        "discount_cents" bigint not null,
        "net_cents" bigint not null,
        "first_at" timestamptz not null,
        "last_at" timestamptz not null
      );`);
      this.addSql(keyIndex(rollup));
      this.addSql(`create view "billing"."revenue_hourly_${rollup.name}" as
        select ${list(keyOf(rollup.columns))}, ${TOTALS} from "billing"."revenue_rollup_${rollup.name}";`);
    }
    this.addSql(`create function "billing"."recompute_revenue_rollups"(p_tenant uuid, p_from timestamptz, p_to timestamptz) returns void
      language plpgsql as $body$
      begin
        ${ROLLUPS.map(recompute).join('\n        ')}
      end $body$;`);
    // p_name: one rollup (bulk loads rebuild several at once on separate connections); null: all of them.
    this.addSql(`create function "billing"."rebuild_revenue_rollups"(p_name text default null) returns void language plpgsql as $body$
      begin
        ${ROLLUPS.map(rebuild).join('\n        ')}
      end $body$;`);
    this.addSql(`create function "billing"."revenue_rollups_add"() returns trigger language plpgsql as $body$
      declare
        src text := case TG_TABLE_NAME when 'charge_items' then 'charge_item' else 'sold_package' end;
      begin
        ${ROLLUPS.map(upsert).join('\n        ')}
        return null;
      end $body$;`);
    // Each touched (tenant, hour) is rebuilt from the lines: old rows for deletes, old and new ones for updates.
    const touched = (from: string) => `create function "billing"."revenue_rollups_recompute_${from === 'old_rows' ? 'delete' : 'update'}"() returns trigger language plpgsql as $body$
      declare
        touched record;
      begin
        for touched in
          select distinct tenant_id, date_bin('1 hour', created_at, '2000-01-01 00:00:00+00') as hour from old_rows
          ${from === 'old_rows' ? '' : "union select tenant_id, date_bin('1 hour', created_at, '2000-01-01 00:00:00+00') from new_rows"}
          order by 1, 2
        loop
          perform billing.recompute_revenue_rollups(touched.tenant_id, touched.hour, touched.hour + interval '1 hour');
        end loop;
        return null;
      end $body$;`;
    this.addSql(touched('old_rows'));
    this.addSql(touched('new_rows'));
    this.addSql(`create function "billing"."revenue_rollups_rebuild"() returns trigger language plpgsql as $body$
      begin
        perform billing.rebuild_revenue_rollups();
        return null;
      end $body$;`);
    for (const table of ['charge_items', 'sold_packages']) {
      // Transition tables allow one event per trigger.
      this.addSql(`create trigger "revenue_rollups_insert" after insert on "billing"."${table}" referencing new table as new_rows for each statement execute function billing.revenue_rollups_add();`);
      this.addSql(`create trigger "revenue_rollups_update" after update on "billing"."${table}" referencing old table as old_rows new table as new_rows for each statement execute function billing.revenue_rollups_recompute_update();`);
      this.addSql(`create trigger "revenue_rollups_delete" after delete on "billing"."${table}" referencing old table as old_rows for each statement execute function billing.revenue_rollups_recompute_delete();`);
      this.addSql(`create trigger "revenue_rollups_truncate" after truncate on "billing"."${table}" for each statement execute function billing.revenue_rollups_rebuild();`);
    }
    this.addSql('select billing.rebuild_revenue_rollups();');
  }

  async down(): Promise<void> {
    for (const table of ['charge_items', 'sold_packages']) {
      for (const event of ['insert', 'update', 'delete', 'truncate']) this.addSql(`drop trigger if exists "revenue_rollups_${event}" on "billing"."${table}";`);
    }
    for (const fn of ['revenue_rollups_add()', 'revenue_rollups_recompute_delete()', 'revenue_rollups_recompute_update()', 'revenue_rollups_rebuild()', 'rebuild_revenue_rollups(text)', 'recompute_revenue_rollups(uuid, timestamptz, timestamptz)']) {
      this.addSql(`drop function if exists "billing".${fn};`);
    }
    for (const rollup of ROLLUPS) {
      this.addSql(`drop view if exists "billing"."revenue_hourly_${rollup.name}";`);
      this.addSql(`drop table if exists "billing"."revenue_rollup_${rollup.name}";`);
    }
  }
}
