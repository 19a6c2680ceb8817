import { randomUUID } from 'node:crypto';
import type { Client } from 'pg';
// The demo seed's repeatable generator (mulberry32), so a failing run's data can be rebuilt.
import { prng } from '../../../subgraphs/billing/seed-data';

/** Helpers of the rollup suites: a tenant's lines written straight into billing's tables, as a bulk load or a sale would. */

/** The directory the lines name: ids with their (sometimes renamed) names. */
export interface LineDirectory {
  locations: { id: string; names: string[] }[];
  providers: { id: string; name: string }[];
  categories: string[];
  mediums: string[];
}

/** A small directory; the first location was renamed, so its lines carry two names under one id. */
export function lineDirectory(): LineDirectory {
  return {
    locations: [
      { id: randomUUID(), names: ['Harbor', 'Harbor Clinic'] },
      { id: randomUUID(), names: ['Uptown'] },
      { id: randomUUID(), names: ['Telehealth'] },
    ],
    providers: [
      { id: randomUUID(), name: 'Maya Okafor' },
      { id: randomUUID(), name: 'Lee Chen' },
      { id: randomUUID(), name: 'Ana Silva' },
    ],
    categories: ['Physical therapy', 'Massage', 'Retail'],
    mediums: ['card', 'cash', 'insurance', 'gift_card'],
  };
}


const HOUR = 3_600_000;

/**
 * Instants the lines fall on: anywhere in [from, to), and a third of them within a minute of a
 * quarter hour (where the local days of half- and quarter-hour zones begin) or exactly on one.
 */
function instant(random: () => number, from: number, to: number): Date {
  const at = from + random() * (to - from);
  if (random() < 0.67) return new Date(at);
  const quarter = Math.floor(at / (HOUR / 4)) * (HOUR / 4);
  return new Date(quarter + (random() < 0.5 ? 0 : Math.floor((random() - 0.5) * 120_000)));
}

/** A line's column values for an INSERT into charge_items or sold_packages. */
function lineValues(tenantId: string, dir: LineDirectory, random: () => number, at: Date): unknown[] {
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const location = pick(dir.locations);
  const provider = random() < 0.2 ? null : pick(dir.providers);
  const gross = 100 + Math.floor(random() * 20_000);
  const discount = random() < 0.3 ? Math.floor(gross * random() * 0.5) : 0;
  return [
    randomUUID(), tenantId, location.id, pick(location.names), provider?.id ?? null, provider?.name ?? null, random() < 0.1 ? null : randomUUID(), 'Pat Doe',
    pick(dir.categories), random() < 0.5 ? 'service' : 'product', random() < 0.5 ? 'Visit' : 'Band', pick(dir.mediums), gross, discount, gross - discount,
    random() < 0.2 ? 'Loyalty discount' : null, at,
  ];
}

const COLUMNS = `id, tenant_id, location_id, location_name, provider_id, provider_name, patient_id, patient_name, item_category, item_type,
  item_name, payment_medium, gross_cents, discount_cents, net_cents, comment, created_at`;

/** Inserts lines in one multi-row statement (one trigger run over many lines). */
export async function insertLines(db: Client, table: 'charge_items' | 'sold_packages', rows: unknown[][]): Promise<void> {
  if (!rows.length) return;
  const width = rows[0].length;
  const placeholders = rows.map((_, r) => `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(', ')})`).join(', ');
  await db.query(`insert into billing.${table} (${COLUMNS}) values ${placeholders}`, rows.flat());
}

/**
 * Writes `count` lines of one tenant between `from` and `to` the ways they are written: bulk
 * statements, single lines, then some moved (updates) and some removed (deletes), which the
 * rollups must follow too.
 */
export async function writeLines(db: Client, tenantId: string, dir: LineDirectory, seed: number, count: number, from: Date, to: Date): Promise<void> {
  const random = prng(seed);
  const make = () => lineValues(tenantId, dir, random, instant(random, from.getTime(), to.getTime()));
  const bulk = Array.from({ length: Math.floor(count * 0.8) }, make);
  for (let i = 0; i < bulk.length; i += 200) await insertLines(db, 'charge_items', bulk.slice(i, i + 200));
  for (let i = 0; i < count * 0.1; i++) await insertLines(db, 'charge_items', [make()]);
  await insertLines(db, 'sold_packages', Array.from({ length: Math.ceil(count * 0.1) }, make));
  const { rows } = await db.query('select id from billing.charge_items where tenant_id = $1 order by id limit 20', [tenantId]);
  for (const [i, row] of rows.entries()) {
    if (i % 4 === 0) await db.query('delete from billing.charge_items where id = $1', [row.id]);
    else await db.query('update billing.charge_items set created_at = $2, net_cents = gross_cents - discount_cents where id = $1', [row.id, instant(random, from.getTime(), to.getTime())]);
  }
}
