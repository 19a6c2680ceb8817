import { randomUUID } from 'node:crypto';
import { Client } from 'pg';

/**
 * Gives a tenant `count` charge items spread over the last year, in one statement, with varied
 * names and categories so that text filters have something to compare. Bench-only: it writes
 * billing's table directly (which no application code may do), with billing's rollup trigger on,
 * so rollups stay exact. For small seeds; bench/lib/revenue-seed.ts loads millions.
 */
export async function insertChargeItems(databaseUrl: string, tenantId: string, count: number): Promise<void> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `insert into billing.charge_items (id, tenant_id, location_id, location_name, provider_id, provider_name, patient_id, patient_name,
         item_category, item_type, item_name, payment_medium, gross_cents, discount_cents, net_cents, comment, created_at, updated_at)
       select gen_random_uuid(), $1::uuid, ($3::uuid[])[1 + n % 3], 'Clinic ' || (1 + n % 3), ($4::uuid[])[1 + n % 6], 'Provider ' || (1 + n % 6),
         null, null, (array['Physical therapy', 'Massage', 'Chiropractic', 'Retail', 'Assessment'])[1 + n % 5],
         case when n % 4 = 0 then 'product' else 'service' end, 'Item ' || (n % 97), (array['card', 'cash', 'insurance', 'ach'])[1 + n % 4],
         1000 + n % 50 * 100, 0, 1000 + n % 50 * 100, case when n % 7 = 0 then 'note ' || n end,
         now() - (n % 365) * interval '1 day' - (n % 24) * interval '1 hour', now()
       from generate_series(1, $2::int) n`,
      [tenantId, count, [randomUUID(), randomUUID(), randomUUID()], Array.from({ length: 6 }, () => randomUUID())],
    );
  } finally {
    await db.end();
  }
}
