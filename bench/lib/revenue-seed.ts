import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';

/** A tenant's fake directory: revenue lines snapshot names, and nothing references the directory by foreign key. */
interface Directory {
  locations: { ids: string[]; names: string[] };
  providers: { ids: string[]; names: string[] };
  patients: { ids: string[]; names: string[] };
}

const CATEGORIES = ['Physical therapy', 'Massage', 'Chiropractic', 'Retail', 'Assessment'];
const ITEMS = ['Initial assessment', 'Follow-up visit', '60-minute massage', 'Adjustment', 'Resistance band', 'Foam roller', 'Dry needling', 'Gait analysis'];
const PRICES = [4500, 8500, 12000, 15000, 9500, 2500, 11000, 18000];
const MEDIUMS = ['card', 'card', 'card', 'card', 'card', 'insurance', 'cash', 'wallet_pay', 'ach', 'gift_card', 'check', 'other'];
const TABLES = ['charge_items', 'sold_packages'] as const;
type Table = (typeof TABLES)[number];

function directory(tenant: number): Directory {
  const make = (count: number, name: (i: number) => string) => ({ ids: Array.from({ length: count }, () => randomUUID()), names: Array.from({ length: count }, (_, i) => name(i)) });
  return {
    locations: make(3, (i) => `Clinic ${tenant}-${i + 1}`),
    providers: make(6, (i) => `Provider ${tenant}-${i + 1}`),
    patients: make(400, (i) => `Patient ${tenant}-${i + 1}`),
  };
}

/**
 * One INSERT ... SELECT over generate_series: lines `$2 + 1` to `$2 + $3` of one tenant and table,
 * spread over the two years before now, a catalogue of items and prices, 15% discounted 10%,
 * about 1 in 10 without a provider and 1 in 12 without a patient. Pseudo-random but repeatable
 * (setseed per batch). Ids ascend within a batch (`$11` is its prefix), so the primary key grows
 * at its right edge instead of splitting pages all over a random-UUID index. Bench-only: it writes
 * billing's tables directly, which no application code may do.
 */
const INSERT = (table: Table) => `
  insert into billing.${table} (id, tenant_id, location_id, location_name, provider_id, provider_name, patient_id, patient_name,
    item_category, item_type, item_name, payment_medium, gross_cents, discount_cents, net_cents, comment, created_at, updated_at${table === 'sold_packages' ? ', session_count' : ''})
  select (substr($11::text, 1, 8) || '-' || substr($11::text, 9, 4) || '-4' || substr($11::text, 13, 3) || '-8' || substr(h, 1, 3) || '-' || substr(h, 4, 12))::uuid,
         $1::uuid, ($4::uuid[])[l], ($5::text[])[l],
         case when p = 0 then null else ($6::uuid[])[p] end, case when p = 0 then null else ($7::text[])[p] end,
         case when q = 0 then null else ($8::uuid[])[q] end, case when q = 0 then null else ($9::text[])[q] end,
         ${table === 'sold_packages' ? `'Packages', 'package', 'Pack of ' || (5 + i % 2 * 5) || ' visits'` : `($12::text[])[1 + i % array_length($12::text[], 1)], case when i % 8 in (4, 5) then 'product' else 'service' end, ($13::text[])[1 + i % 8]`},
         ($10::text[])[1 + (g * 7) % array_length($10::text[], 1)],
         gross, discount, gross - discount, case when discount > 0 then 'Loyalty discount' end, at, at${table === 'sold_packages' ? ', 5 + i % 2 * 5' : ''}
  from (
    select g, lpad(to_hex(g), 15, '0') as h, i, l, p, q, at, gross, case when random() < 0.15 then gross / 10 else 0 end as discount
    from (
      select g, floor(random() * 1000)::int as i, 1 + floor(random() * 3)::int as l,
             case when random() < 0.1 then 0 else 1 + floor(random() * 6)::int end as p,
             case when random() < 0.08 then 0 else 1 + floor(random() * 400)::int end as q,
             now() - random() * interval '730 days' as at,
             ${table === 'sold_packages' ? '50000 + floor(random() * 2)::int * 45000' : '($14::int[])[1 + floor(random() * 8)::int]'} as gross
      from generate_series($2::bigint + 1, $2::bigint + $3::bigint) g
    ) r
  ) s`;

/** One batch of lines: a slice of one tenant's lines in one table. */
interface Batch {
  table: Table;
  tenantId: string;
  dir: Directory;
  from: number;
  count: number;
  seed: number;
}

/** 95% charge items and 5% sold packages per tenant; the measured tenant's charge items in two halves, so both connections stay busy. */
function batches(measured: string, others: string[], lines: number, otherLines: number): Batch[] {
  const list: Batch[] = [];
  const add = (tenantId: string, dir: Directory, total: number, parts: number) => {
    const packages = Math.round(total * 0.05);
    const charges = total - packages;
    for (let part = 0; part < parts; part++) {
      const from = Math.floor((charges * part) / parts);
      list.push({ table: 'charge_items', tenantId, dir, from, count: Math.floor((charges * (part + 1)) / parts) - from, seed: list.length });
    }
    list.push({ table: 'sold_packages', tenantId, dir, from: 0, count: packages, seed: list.length });
  };
  add(measured, directory(0), lines, 2);
  others.forEach((tenantId, i) => add(tenantId, directory(i + 1), otherLines, 1));
  return list;
}

/** Runs jobs on the clients, each client taking the next job when done with one. */
async function onClients<T>(clients: Client[], jobs: T[], run: (client: Client, job: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(clients.map(async (client) => {
    while (next < jobs.length) await run(client, jobs[next++]);
  }));
}

/** Phase durations in seconds, for the report. */
export interface SeedTimings {
  load: number;
  index: number;
  vacuum: number;
  rollups: number;
  total: number;
}

/**
 * Seeds the measured tenant with `lines` lines and every other tenant with `otherLines`. Bulk
 * load done the way PostgreSQL's manual advises ("Populating a Database"): the secondary indexes
 * of both line tables and billing's rollup insert trigger are set aside, the lines loaded on two
 * connections, the indexes rebuilt, both tables vacuumed (index-only scans need the visibility
 * map), then billing's own `rebuild_revenue_rollups()` rolls the lines up, as its triggers would
 * have. Whatever happens, the indexes and the trigger are put back.
 */
export async function seedRevenue(databaseUrl: string, measured: string, others: string[], lines: number, otherLines: number, say: (m: string) => void): Promise<SeedTimings> {
  const clients = [new Client({ connectionString: databaseUrl }), new Client({ connectionString: databaseUrl })];
  await Promise.all(clients.map((c) => c.connect()));
  const [db] = clients;
  const started = Date.now();
  const since = (from: number) => (Date.now() - from) / 1000;
  const { rows: indexes } = await db.query<{ name: string; def: string }>(`
    select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def from pg_index i
    where i.indrelid in ('billing.charge_items'::regclass, 'billing.sold_packages'::regclass)
      and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`);
  const { rows: triggers } = await db.query<{ table: string }>(`
    select tgrelid::regclass::text as table from pg_trigger where tgname = 'revenue_rollups_insert' and not tgisinternal
      and tgrelid in ('billing.charge_items'::regclass, 'billing.sold_packages'::regclass)`);
  const timings: SeedTimings = { load: 0, index: 0, vacuum: 0, rollups: 0, total: 0 };
  let restored = false;
  const restore = async () => {
    if (restored) return;
    restored = true;
    const phase = Date.now();
    await Promise.all(clients.map((c) => c.query(`set maintenance_work_mem = '256MB'`)));
    await onClients(clients, indexes, async (client, index) => void (await client.query(index.def.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX IF NOT EXISTS '))));
    for (const { table } of triggers) await db.query(`alter table ${table} enable trigger revenue_rollups_insert`);
    timings.index = since(phase);
  };
  try {
    for (const index of indexes) await db.query(`drop index ${index.name}`);
    for (const { table } of triggers) await db.query(`alter table ${table} disable trigger revenue_rollups_insert`);
    let phase = Date.now();
    const prefix = randomBytes(6).toString('hex');
    await onClients(clients, batches(measured, others, lines, otherLines), async (client, batch) => {
      const d = batch.dir;
      await client.query('select setseed($1)', [((batch.seed * 7919) % 1000) / 1000]);
      const id = `${prefix}${batch.seed.toString(16).padStart(2, '0')}${batch.table === 'charge_items' ? '1' : '2'}`;
      const common = [batch.tenantId, batch.from, batch.count, d.locations.ids, d.locations.names, d.providers.ids, d.providers.names, d.patients.ids, d.patients.names, MEDIUMS];
      const params = batch.table === 'charge_items' ? [...common, id, CATEGORIES, ITEMS, PRICES] : [...common, id];
      await client.query(INSERT(batch.table), params);
    });
    timings.load = since(phase);
    say(`loaded ${(lines + otherLines * others.length).toLocaleString('en-US')} lines in ${timings.load.toFixed(1)} s (secondary indexes and the rollup trigger set aside)`);
    await restore();
    say(`rebuilt ${indexes.length} indexes in ${timings.index.toFixed(1)} s`);
    phase = Date.now();
    await onClients(clients, [...TABLES], async (client, table) => void (await client.query(`vacuum analyze billing.${table}`)));
    timings.vacuum = since(phase);
    say(`vacuum analyze done in ${timings.vacuum.toFixed(1)} s`);
    phase = Date.now();
    if (triggers.length) {
      // Largest first, so the two connections finish together.
      const { rows } = await db.query<{ name: string }>(`select substr(relname, 16) as name from pg_class
        where relnamespace = 'billing'::regnamespace and relname like 'revenue\\_rollup\\_%' and relkind = 'r' order by relpages desc, relname`);
      await onClients(clients, rows, async (client, { name }) => {
        await client.query(`set work_mem = '256MB'; set maintenance_work_mem = '256MB'`);
        await client.query('select billing.rebuild_revenue_rollups($1)', [name]);
      });
      // Only once every rebuild has committed: a vacuum while another connection's rebuild still runs cannot mark
      // pages all-visible (that transaction may not see the rows), and index-only scans then visit the heap row by row.
      await onClients(clients, rows, async (client, { name }) => void (await client.query(`vacuum analyze billing.revenue_rollup_${name}`)));
    }
    timings.rollups = since(phase);
    timings.total = since(started);
    say(`rollups rebuilt in ${timings.rollups.toFixed(1)} s; seeding took ${timings.total.toFixed(1)} s in all`);
    return timings;
  } finally {
    await restore().catch((error) => say(`could not put the indexes and the trigger back: ${error instanceof Error ? error.message : error}`));
    await Promise.all(clients.map((c) => c.end()));
  }
}
