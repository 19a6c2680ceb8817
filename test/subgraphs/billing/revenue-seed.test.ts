import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { seedRevenue } from '../../../bench/lib/revenue-seed';
import { migrateAll } from '../../../gateway/migrate';

/**
 * The revenue benchmark's seed (bench/lib/revenue-seed.ts) sums billing's rollups itself as it
 * draws the lines, instead of rolling the lines up in SQL: what it writes must be row for row what
 * `billing.rebuild_revenue_rollups()` builds from the same lines. The seed sets billing's indexes
 * and rollup trigger aside table-wide, so it runs in a database of its own, dropped after.
 */

const ROLLUPS = ['total', 'location', 'provider', 'item_category', 'payment_medium'];

describe('the revenue benchmark seed (real PostgreSQL, a database of its own)', () => {
  const name = `revenue_seed_${randomBytes(6).toString('hex')}`;
  const url = new URL(process.env.DATABASE_URL!);
  let admin: Client;
  let db: Client;
  beforeAll(async () => {
    admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    url.pathname = `/${name}`;
    await migrateAll(url.toString());
    db = new Client({ connectionString: url.toString() });
    await db.connect();
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  /** Every rollup's rows as they are, against the same after billing rebuilds them all from the lines. */
  async function compareWithRebuild(): Promise<{ name: string; rows: number; onlySeed: number; onlyRebuild: number }[]> {
    for (const rollup of ROLLUPS) await db.query(`create temp table seeded_${rollup} as select * from billing.revenue_rollup_${rollup}`);
    await db.query('select billing.rebuild_revenue_rollups()');
    const result = [];
    for (const rollup of ROLLUPS) {
      const count = async (sql: string) => Number((await db.query(`select count(*) as n from (${sql}) d`)).rows[0].n);
      result.push({
        name: rollup,
        rows: await count(`select * from seeded_${rollup}`),
        onlySeed: await count(`select * from seeded_${rollup} except all select * from billing.revenue_rollup_${rollup}`),
        onlyRebuild: await count(`select * from billing.revenue_rollup_${rollup} except all select * from seeded_${rollup}`),
      });
      await db.query(`drop table seeded_${rollup}`);
    }
    return result;
  }

  it('writes the rollups billing.rebuild_revenue_rollups() builds, and puts the indexes and the trigger back', async () => {
    const indexes = async () => (await db.query(`select indexrelid::regclass::text as name from pg_index
      where indrelid::regclass::text like 'billing.charge_items' or indrelid::regclass::text like 'billing.sold_packages' or indrelid::regclass::text like 'billing.revenue\\_rollup\\_%' order by 1`)).rows.map((r) => r.name);
    const before = await indexes();
    const measured = randomUUID();
    const others = Array.from({ length: 9 }, () => randomUUID());
    const timings = await seedRevenue(url.toString(), measured, others, 200_000, 20_000, () => undefined);
    expect(timings.rollupsSummed).toBe(true);
    expect(await indexes()).toEqual(before);
    const { rows: triggers } = await db.query(`select tgenabled from pg_trigger where tgname = 'revenue_rollups_insert'`);
    expect(triggers.map((t) => t.tgenabled)).toEqual(['O', 'O']);
    const { rows: [lines] } = await db.query(`select count(*)::int as all, count(*) filter (where tenant_id = $1)::int as measured,
      count(*) filter (where source = 'sold_package')::int as packages from billing.revenue_line`, [measured]);
    expect(lines).toEqual({ all: 380_000, measured: 200_000, packages: 19_000 });

    const compared = await compareWithRebuild();
    for (const rollup of compared) expect(rollup).toEqual({ name: rollup.name, rows: expect.any(Number), onlySeed: 0, onlyRebuild: 0 });
    // At 200k lines over two years most hours hold a line or two, so each rollup has about as many rows as lines.
    for (const rollup of compared) expect(rollup.rows).toBeGreaterThan(100_000);

    // Tenants that already have lines: the seed cannot just add its sums, and billing rebuilds the rollups instead.
    const again = await seedRevenue(url.toString(), measured, [], 10_000, 1, () => undefined);
    expect(again.rollupsSummed).toBe(false);
    for (const rollup of await compareWithRebuild()) expect(rollup).toEqual({ name: rollup.name, rows: expect.any(Number), onlySeed: 0, onlyRebuild: 0 });
  }, 300_000);
});
