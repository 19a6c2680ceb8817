import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
// The demo seed's repeatable generator (mulberry32).
import { prng } from '../../subgraphs/billing/seed-data';

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

/** Two years, in microseconds: lines fall in the two years before the seed starts. */
const SPAN_US = 730 * 86_400_000_000;
const HOUR_US = 3_600_000_000;
/** Lines per INSERT: small enough for the two connections to share the last ones out, large enough that statements cost nothing. */
const CHUNK = 250_000;

/**
 * One INSERT ... SELECT writing lines `$2 + 1` to `$2 + $14` of one tenant and table from the
 * chunk's draws, which the seed makes (see `generate`) so that it can sum the rollups as it goes:
 * `$12[k]` packs line k's item (0-999), location (0-2), provider (0: none, else 1-6), price
 * (0-7), discount (0 or 1) and patient (0: none, else 1-400), `$13[k]` how many microseconds
 * before `$3` it was sold. The catalogue, the names and the ids are made here, as before. Ids
 * ascend within a tenant and table (`$11` is its prefix), so the primary key grows at its right
 * edge instead of splitting pages all over a random-UUID index. Bench-only: it writes billing's
 * tables directly, which no application code may do.
 */
const INSERT = (table: Table) => `
  insert into billing.${table} (id, tenant_id, location_id, location_name, provider_id, provider_name, patient_id, patient_name,
    item_category, item_type, item_name, payment_medium, gross_cents, discount_cents, net_cents, comment, created_at, updated_at${table === 'sold_packages' ? ', session_count' : ''})
  select (substr($11::text, 1, 8) || '-' || substr($11::text, 9, 4) || '-4' || substr($11::text, 13, 3) || '-8' || substr(h, 1, 3) || '-' || substr(h, 4, 12))::uuid,
         $1::uuid, ($4::uuid[])[l], ($5::text[])[l],
         case when p = 0 then null else ($6::uuid[])[p] end, case when p = 0 then null else ($7::text[])[p] end,
         case when q = 0 then null else ($8::uuid[])[q] end, case when q = 0 then null else ($9::text[])[q] end,
         ${table === 'sold_packages' ? `'Packages', 'package', 'Pack of ' || (5 + i % 2 * 5) || ' visits'` : `($15::text[])[1 + i % array_length($15::text[], 1)], case when i % 8 in (4, 5) then 'product' else 'service' end, ($16::text[])[1 + i % 8]`},
         ($10::text[])[1 + (g * 7) % array_length($10::text[], 1)],
         gross, discount, gross - discount, case when discount > 0 then 'Loyalty discount' end, at, at${table === 'sold_packages' ? ', 5 + i % 2 * 5' : ''}
  from (
    select g, lpad(to_hex(g), 15, '0') as h, c % 1000 as i, 1 + c / 1000 % 3 as l, c / 3000 % 7 as p, c / 336000 as q,
           $3::timestamptz - o * interval '1 microsecond' as at, gross, case when c / 168000 % 2 = 1 then gross / 10 else 0 end as discount
    from (
      select g, c, o, ${table === 'sold_packages' ? '50000 + c / 21000 % 8 * 45000' : '($17::int[])[1 + c / 21000 % 8]'} as gross
      from (select $2::bigint + k as g, ($12::int[])[k] as c, ($13::bigint[])[k] as o from generate_series(1, $14::int) k offset 0) d
    ) r
  ) s`;

/**
 * The rollups billing keeps (subgraphs/billing/migrations/Migration20261215000000_revenue_rollups.ts),
 * each with its key's dimension columns and their values by the index the seed sums under. The
 * seed writes them only while billing's rollup tables are exactly these (else it calls
 * `billing.rebuild_revenue_rollups`); test/subgraphs/billing/revenue-seed.test.ts holds them
 * equal to what that function builds.
 */
const ROLLUPS: { name: string; columns: { name: string; type: 'uuid' | 'text' }[]; values: (d: Directory) => (string | null)[][] }[] = [
  { name: 'total', columns: [{ name: 'source', type: 'text' }], values: () => [['charge_item', 'sold_package']] },
  { name: 'location', columns: [{ name: 'location_id', type: 'uuid' }, { name: 'location_name', type: 'text' }], values: (d) => [d.locations.ids, d.locations.names] },
  { name: 'provider', columns: [{ name: 'provider_id', type: 'uuid' }, { name: 'provider_name', type: 'text' }], values: (d) => [[null, ...d.providers.ids], [null, ...d.providers.names]] },
  { name: 'item_category', columns: [{ name: 'item_category', type: 'text' }], values: () => [[...CATEGORIES, 'Packages']] },
  { name: 'payment_medium', columns: [{ name: 'payment_medium', type: 'text' }], values: () => [[...new Set(MEDIUMS)]] },
];
/** How many values each rollup's key takes per tenant and hour, where they start among an hour's cells, and how many cells an hour has. */
const SIZES = ROLLUPS.map((rollup) => rollup.values(directory(0))[0].length);
const OFFSETS = SIZES.map((_, r) => SIZES.slice(0, r).reduce((n, size) => n + size, 0));
const CELLS = SIZES.reduce((n, size) => n + size, 0);
/** Per cell: lines, packages, gross, discount, net, first and last instant (microseconds since 1970). */
const STATS = 7;
const MEDIUM_INDEX = MEDIUMS.map((m) => [...new Set(MEDIUMS)].indexOf(m));

/** One tenant's rollups as the seed sums them: every hour of the two years, every rollup's cells. */
class TenantSums {
  readonly stats: Float64Array;
  constructor(readonly firstHour: number, readonly hours: number) {
    this.stats = new Float64Array(hours * CELLS * STATS);
  }

  /** The rows of one rollup, as parallel arrays for an INSERT ... SELECT. */
  rows(rollup: number): { hour: number[]; cell: number[]; totals: number[][] } {
    const size = SIZES[rollup];
    const out = { hour: [] as number[], cell: [] as number[], totals: Array.from({ length: STATS }, () => [] as number[]) };
    for (let h = 0; h < this.hours; h++) {
      for (let c = 0; c < size; c++) {
        const at = (h * CELLS + OFFSETS[rollup] + c) * STATS;
        if (this.stats[at] === 0) continue;
        out.hour.push(this.firstHour + h);
        out.cell.push(c + 1);
        for (let s = 0; s < STATS; s++) out.totals[s].push(this.stats[at + s]);
      }
    }
    return out;
  }
}

/** One chunk of lines: a slice of one tenant's lines in one table, with its own random stream. */
interface Chunk {
  table: Table;
  tenant: number;
  from: number;
  count: number;
  seed: number;
}

/** 95% charge items and 5% sold packages per tenant, in chunks the two connections share out. */
function chunks(lines: number[]): Chunk[] {
  const list: Chunk[] = [];
  lines.forEach((total, tenant) => {
    const packages = Math.round(total * 0.05);
    for (const [table, count] of [['charge_items', total - packages], ['sold_packages', packages]] as const) {
      for (let from = 0; from < count; from += CHUNK) list.push({ table, tenant, from, count: Math.min(CHUNK, count - from), seed: list.length + 1 });
    }
  });
  return list;
}

/**
 * A chunk's draws, as PostgreSQL's random() drew them before: the item uniform over 1000, the
 * location over 3, 1 in 10 lines without a provider (else uniform over 6), 1 in 12 without a
 * patient (else uniform over 400), the instant uniform over the two years, the price uniform over
 * the catalogue's 8 (a package's over its 2), 15% discounted 10%. Repeatable: the demo seed's
 * generator, seeded per chunk. Each line is added to its tenant's rollups as it is drawn.
 */
function generate(chunk: Chunk, nowUs: number, sums: TenantSums | null): { codes: string; offsets: string } {
  const random = prng(chunk.seed * 7919);
  const codes = new Array<number>(chunk.count);
  const offsets = new Array<number>(chunk.count);
  const packages = chunk.table === 'sold_packages';
  const stats = sums?.stats;
  const firstHour = sums?.firstHour ?? 0;
  for (let k = 0; k < chunk.count; k++) {
    const i = Math.floor(random() * 1000);
    const l = Math.floor(random() * 3);
    const p = random() < 0.1 ? 0 : 1 + Math.floor(random() * 6);
    const q = random() < 0.08 ? 0 : 1 + Math.floor(random() * 400);
    // 53 bits of a uniform draw: microseconds over two years need more than one 32-bit draw gives.
    const o = Math.min(SPAN_US - 1, Math.floor((random() + random() / 4_294_967_296) * SPAN_US));
    const price = Math.floor(random() * (packages ? 2 : 8));
    const discounted = random() < 0.15 ? 1 : 0;
    codes[k] = i + 1000 * l + 3000 * p + 21000 * price + 168000 * discounted + 336000 * q;
    offsets[k] = o;
    const gross = packages ? 50000 + price * 45000 : PRICES[price];
    const discount = discounted ? Math.trunc(gross / 10) : 0;
    if (!stats) continue;
    const at = nowUs - o;
    const base = (Math.floor(at / HOUR_US) - firstHour) * CELLS;
    const pkg = packages ? 1 : 0;
    // In ROLLUPS' order: total (by source), location, provider (0: none), item category, payment medium.
    add(stats, (base + OFFSETS[0] + pkg) * STATS, at, pkg, gross, discount);
    add(stats, (base + OFFSETS[1] + l) * STATS, at, pkg, gross, discount);
    add(stats, (base + OFFSETS[2] + p) * STATS, at, pkg, gross, discount);
    add(stats, (base + OFFSETS[3] + (packages ? CATEGORIES.length : i % CATEGORIES.length)) * STATS, at, pkg, gross, discount);
    add(stats, (base + OFFSETS[4] + MEDIUM_INDEX[((chunk.from + k + 1) * 7) % MEDIUMS.length]) * STATS, at, pkg, gross, discount);
  }
  return { codes: `{${codes.join(',')}}`, offsets: `{${offsets.join(',')}}` };
}

/** Adds a line to one cell's sums (`s`: where the cell's stats start). */
function add(stats: Float64Array, s: number, at: number, pkg: number, gross: number, discount: number): void {
  if (stats[s] === 0 || at < stats[s + 5]) stats[s + 5] = at;
  if (stats[s] === 0 || at > stats[s + 6]) stats[s + 6] = at;
  stats[s] += 1;
  stats[s + 1] += pkg;
  stats[s + 2] += gross;
  stats[s + 3] += discount;
  stats[s + 4] += gross - discount;
}

/** Adds one tenant's rows to one rollup (an instant travels as microseconds since 1970, an hour as hours since 1970). */
const ROLLUP_INSERT = (rollup: (typeof ROLLUPS)[number]) => `
  insert into billing.revenue_rollup_${rollup.name} (tenant_id, hour, ${rollup.columns.map((c) => c.name).join(', ')},
    line_count, package_count, gross_cents, discount_cents, net_cents, first_at, last_at)
  select $1::uuid, timestamptz 'epoch' + hour * interval '1 hour', ${rollup.columns.map((c, i) => `($${11 + i}::${c.type}[])[cell]`).join(', ')},
    lines, packages, gross, discount, net, timestamptz 'epoch' + first_us * interval '1 microsecond', timestamptz 'epoch' + last_us * interval '1 microsecond'
  from unnest($2::int[], $3::int[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[])
    as u(hour, cell, lines, packages, gross, discount, net, first_us, last_us)`;

/** Runs jobs on the clients, each client taking the next job when done with one. */
async function onClients<T>(clients: Client[], jobs: T[], run: (client: Client, job: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(clients.map(async (client) => {
    while (next < jobs.length) await run(client, jobs[next++]);
  }));
}

/** Phase durations in seconds, for the report, and how the rollups were made. */
export interface SeedTimings {
  load: number;
  index: number;
  vacuum: number;
  rollups: number;
  total: number;
  /** true: summed by the seed as it drew the lines; false: rebuilt from the lines by `billing.rebuild_revenue_rollups`. */
  rollupsSummed: boolean;
}

const sameNames = (a: string[], b: string[]) => a.length === b.length && [...a].sort().every((name, i) => name === [...b].sort()[i]);

/**
 * Seeds the measured tenant with `lines` lines and every other tenant with `otherLines`. Bulk
 * load done the way PostgreSQL's manual advises ("Populating a Database"): the secondary indexes
 * of both line tables and billing's rollup insert trigger are set aside, the lines loaded on two
 * connections, the indexes rebuilt, both tables vacuumed (index-only scans need the visibility
 * map). The rollups are summed here as the lines are drawn, which costs the seed next to nothing
 * where rolling 19M lines up in SQL took longer than loading them (five aggregations of every
 * line: 60-170 s on 2 cores); each rollup's rows go in with its key index set aside and the index
 * built after, in one transaction, as `billing.rebuild_revenue_rollups` does, then the rollups are
 * vacuumed. That needs the seeded tenants to have no lines yet and billing's rollups to be the
 * ones `ROLLUPS` knows; otherwise billing's own `rebuild_revenue_rollups()` rolls every line up,
 * as its triggers would have. Lines other connections insert while the trigger is off are not
 * rolled up on the first path (nothing writes lines during the benchmark's seed). Whatever
 * happens, the indexes and the trigger are put back.
 */
export async function seedRevenue(databaseUrl: string, measured: string, others: string[], lines: number, otherLines: number, say: (m: string) => void): Promise<SeedTimings> {
  const clients = [new Client({ connectionString: databaseUrl }), new Client({ connectionString: databaseUrl })];
  await Promise.all(clients.map((c) => c.connect()));
  const [db] = clients;
  const started = Date.now();
  const since = (from: number) => (Date.now() - from) / 1000;
  const tenants = [measured, ...others];
  const dirs = tenants.map((_, i) => directory(i));
  const { rows: indexes } = await db.query<{ name: string; def: string }>(`
    select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def from pg_index i
    where i.indrelid in ('billing.charge_items'::regclass, 'billing.sold_packages'::regclass)
      and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
    order by i.indrelid = 'billing.charge_items'::regclass desc, i.indnatts desc, i.indnkeyatts desc`);
  const { rows: triggers } = await db.query<{ table: string }>(`
    select tgrelid::regclass::text as table from pg_trigger where tgname = 'revenue_rollups_insert' and not tgisinternal
      and tgrelid in ('billing.charge_items'::regclass, 'billing.sold_packages'::regclass)`);
  const { rows: [fit] } = await db.query<{ rollups: string[]; taken: boolean }>(`
    select array(select substr(relname, 16) from pg_class where relnamespace = 'billing'::regnamespace and relname like 'revenue\\_rollup\\_%' and relkind = 'r') as rollups,
      exists (select 1 from billing.revenue_line where tenant_id = any($1::uuid[])) as taken`, [tenants]);
  const summed = triggers.length > 0 && !fit.taken && sameNames(fit.rollups, ROLLUPS.map((r) => r.name));
  const timings: SeedTimings = { load: 0, index: 0, vacuum: 0, rollups: 0, total: 0, rollupsSummed: summed };
  let restored = false;
  const restore = async () => {
    if (restored) return;
    restored = true;
    const phase = Date.now();
    await Promise.all(clients.map((c) => c.query(`set maintenance_work_mem = '256MB'`)));
    // Largest first (the covering index of charge items), so the two connections finish together.
    await onClients(clients, indexes, async (client, index) => void (await client.query(index.def.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX IF NOT EXISTS '))));
    for (const { table } of triggers) await db.query(`alter table ${table} enable trigger revenue_rollups_insert`);
    timings.index = since(phase);
  };
  try {
    for (const index of indexes) await db.query(`drop index ${index.name}`);
    for (const { table } of triggers) await db.query(`alter table ${table} disable trigger revenue_rollups_insert`);
    let phase = Date.now();
    const nowMs = Date.now();
    const nowUs = nowMs * 1000;
    const firstHour = Math.floor((nowUs - SPAN_US) / HOUR_US);
    const sums = summed ? tenants.map(() => new TenantSums(firstHour, Math.floor(nowUs / HOUR_US) - firstHour + 1)) : null;
    const prefix = randomBytes(6).toString('hex');
    await onClients(clients, chunks([lines, ...others.map(() => otherLines)]), async (client, chunk) => {
      const d = dirs[chunk.tenant];
      const { codes, offsets } = generate(chunk, nowUs, sums?.[chunk.tenant] ?? null);
      const stem = `${prefix}${chunk.tenant.toString(16).padStart(2, '0')}${chunk.table === 'charge_items' ? '1' : '2'}`;
      const params = [tenants[chunk.tenant], chunk.from, new Date(nowMs).toISOString(), d.locations.ids, d.locations.names, d.providers.ids, d.providers.names,
        d.patients.ids, d.patients.names, MEDIUMS, stem, codes, offsets, chunk.count];
      await client.query(INSERT(chunk.table), chunk.table === 'charge_items' ? [...params, CATEGORIES, ITEMS, PRICES] : params);
    });
    timings.load = since(phase);
    say(`loaded ${(lines + otherLines * others.length).toLocaleString('en-US')} lines in ${timings.load.toFixed(1)} s (secondary indexes and the rollup trigger set aside${summed ? '; rollups summed on the way' : ''})`);
    await restore();
    say(`rebuilt ${indexes.length} indexes in ${timings.index.toFixed(1)} s`);
    phase = Date.now();
    await onClients(clients, [...TABLES], async (client, table) => void (await client.query(`vacuum analyze billing.${table}`)));
    timings.vacuum = since(phase);
    say(`vacuum analyze done in ${timings.vacuum.toFixed(1)} s`);
    phase = Date.now();
    if (sums) {
      // Most cells first, so the two connections finish together.
      const order = ROLLUPS.map((_, r) => r).sort((a, b) => SIZES[b] - SIZES[a]);
      await onClients(clients, order, (client, r) => writeRollup(client, r, tenants, dirs, sums));
    } else if (triggers.length) {
      const { rows } = await db.query<{ name: string }>(`select substr(relname, 16) as name from pg_class
        where relnamespace = 'billing'::regnamespace and relname like 'revenue\\_rollup\\_%' and relkind = 'r' order by relpages desc, relname`);
      await onClients(clients, rows, async (client, { name }) => {
        await client.query(`set work_mem = '256MB'; set maintenance_work_mem = '256MB'`);
        await client.query('select billing.rebuild_revenue_rollups($1)', [name]);
      });
    }
    if (triggers.length) {
      // Only once every rollup has committed: a vacuum while another connection's transaction still runs cannot mark
      // pages all-visible (that transaction may not see the rows), and index-only scans then visit the heap row by row.
      const { rows } = await db.query<{ name: string }>(`select relname as name from pg_class
        where relnamespace = 'billing'::regnamespace and relname like 'revenue\\_rollup\\_%' and relkind = 'r' order by relpages desc, relname`);
      await onClients(clients, rows, async (client, { name }) => void (await client.query(`vacuum analyze billing.${name}`)));
    }
    timings.rollups = since(phase);
    timings.total = since(started);
    say(`rollups ${summed ? 'written' : 'rebuilt'} in ${timings.rollups.toFixed(1)} s; seeding took ${timings.total.toFixed(1)} s in all`);
    return timings;
  } finally {
    await restore().catch((error) => say(`could not put the indexes and the trigger back: ${error instanceof Error ? error.message : error}`));
    await Promise.all(clients.map((c) => c.end()));
  }
}

/**
 * Adds the seeded tenants' rows to one rollup in one transaction: its indexes (the unique key)
 * dropped, the rows inserted, the indexes built again from their own definitions, as
 * `billing.rebuild_revenue_rollups` builds them; a failure rolls all of it back.
 */
async function writeRollup(client: Client, r: number, tenants: string[], dirs: Directory[], sums: TenantSums[]): Promise<void> {
  const rollup = ROLLUPS[r];
  await client.query('begin');
  try {
    await client.query(`set local maintenance_work_mem = '256MB'`);
    const { rows: keys } = await client.query<{ name: string; def: string }>(`
      select indexrelid::regclass::text as name, pg_get_indexdef(indexrelid) as def from pg_index where indrelid = $1::regclass`, [`billing.revenue_rollup_${rollup.name}`]);
    for (const key of keys) await client.query(`drop index ${key.name}`);
    for (let t = 0; t < tenants.length; t++) {
      const rows = sums[t].rows(r);
      // Array literals joined here: pg quotes and escapes every element of a JS array, several times slower for millions of numbers.
      const arrays = [rows.hour, rows.cell, ...rows.totals].map((values) => `{${values.join(',')}}`);
      if (rows.hour.length) await client.query(ROLLUP_INSERT(rollup), [tenants[t], ...arrays, ...rollup.values(dirs[t])]);
    }
    for (const key of keys) await client.query(key.def);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  }
}
