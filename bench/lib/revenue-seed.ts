import { randomUUID } from 'node:crypto';
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

function directory(tenant: number): Directory {
  const make = (count: number, name: (i: number) => string) => ({ ids: Array.from({ length: count }, () => randomUUID()), names: Array.from({ length: count }, (_, i) => name(i)) });
  return {
    locations: make(3, (i) => `Clinic ${tenant}-${i + 1}`),
    providers: make(6, (i) => `Provider ${tenant}-${i + 1}`),
    patients: make(400, (i) => `Patient ${tenant}-${i + 1}`),
  };
}

/**
 * One INSERT ... SELECT over generate_series: `$2` lines spread over the two years before now, a
 * catalogue of items and prices, 15% discounted 10%, about 1 in 10 without a provider and 1 in 12
 * without a patient. Pseudo-random but repeatable (setseed). Bench-only: it writes billing's tables
 * directly, which no application code may do.
 */
const INSERT = (table: 'charge_items' | 'sold_packages') => `
  insert into billing.${table} (id, tenant_id, location_id, location_name, provider_id, provider_name, patient_id, patient_name,
    item_category, item_type, item_name, payment_medium, gross_cents, discount_cents, net_cents, comment, created_at, updated_at${table === 'sold_packages' ? ', session_count' : ''})
  select gen_random_uuid(), $1::uuid, ($3::uuid[])[l], ($4::text[])[l],
         case when p = 0 then null else ($5::uuid[])[p] end, case when p = 0 then null else ($6::text[])[p] end,
         case when q = 0 then null else ($7::uuid[])[q] end, case when q = 0 then null else ($8::text[])[q] end,
         ${table === 'sold_packages' ? `'Packages', 'package', 'Pack of ' || (5 + i % 2 * 5) || ' visits'` : `($10::text[])[1 + i % array_length($10::text[], 1)], case when i % 8 in (4, 5) then 'product' else 'service' end, ($11::text[])[1 + i % 8]`},
         ($9::text[])[1 + (g * 7) % array_length($9::text[], 1)],
         gross, discount, gross - discount, case when discount > 0 then 'Loyalty discount' end, at, at${table === 'sold_packages' ? ', 5 + i % 2 * 5' : ''}
  from (
    select g, i, l, p, q, at, gross, case when random() < 0.15 then gross / 10 else 0 end as discount
    from (
      select g, floor(random() * 1000)::int as i, 1 + floor(random() * 3)::int as l,
             case when random() < 0.1 then 0 else 1 + floor(random() * 6)::int end as p,
             case when random() < 0.08 then 0 else 1 + floor(random() * 400)::int end as q,
             now() - random() * interval '730 days' as at,
             ${table === 'sold_packages' ? '50000 + floor(random() * 2)::int * 45000' : '($12::int[])[1 + floor(random() * 8)::int]'} as gross
      from generate_series(1, $2::int) g
    ) r
  ) s`;

/** Inserts `lines` revenue lines for one tenant: 95% charge items, 5% sold packages. */
async function seedTenant(db: Client, tenantId: string, lines: number, tenant: number): Promise<void> {
  const dir = directory(tenant);
  const common = [tenantId, dir.locations.ids, dir.locations.names, dir.providers.ids, dir.providers.names, dir.patients.ids, dir.patients.names];
  const packages = Math.round(lines * 0.05);
  await db.query(INSERT('charge_items'), [common[0], lines - packages, ...common.slice(1), MEDIUMS, CATEGORIES, ITEMS, PRICES]);
  await db.query(INSERT('sold_packages'), [common[0], packages, ...common.slice(1), MEDIUMS]);
}

/** Seeds the measured tenant with `lines` lines and every other tenant with `otherLines`, then VACUUM ANALYZE (index-only scans need the visibility map). */
export async function seedRevenue(databaseUrl: string, measured: string, others: string[], lines: number, otherLines: number, say: (m: string) => void): Promise<void> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('select setseed(0.42)');
    const started = Date.now();
    await seedTenant(db, measured, lines, 0);
    say(`seeded ${lines.toLocaleString('en-US')} lines for the measured tenant in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    for (const [i, tenant] of others.entries()) await seedTenant(db, tenant, otherLines, i + 1);
    say(`seeded ${(otherLines * others.length).toLocaleString('en-US')} lines for ${others.length} other tenants`);
    await db.query('vacuum analyze billing.charge_items, billing.sold_packages');
    say(`vacuum analyze done after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await db.end();
  }
}
