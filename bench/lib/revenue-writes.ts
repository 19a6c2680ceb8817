import type { Client } from 'pg';
import type { BenchTenant } from './tenant';
import { summarise, type Timings } from './timing';

/** Write latencies with billing's rollup trigger on and off, measured in alternating rounds. */
export interface WriteRun {
  /** `recordChargeItem` through the app's GraphQL endpoint (what a front desk waits for). */
  app: { on: Timings; off: Timings };
  /** One single-line INSERT through `pg`, the statement the trigger runs after. */
  sql: { on: Timings; off: Timings };
  rounds: number;
}

const TABLES = ['billing.charge_items', 'billing.sold_packages'];

async function gql(baseUrl: string, tenant: BenchTenant, query: string, variables: object): Promise<any> {
  const res = await fetch(`${baseUrl}/graphql`, { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  const body = (await res.json()) as { data?: any; errors?: unknown };
  if (res.status !== 200 || body.errors) throw new Error(`GraphQL answered ${res.status}: ${JSON.stringify(body.errors ?? body).slice(0, 300)}`);
  return body.data;
}

async function timed(call: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await call();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/**
 * Writes lines for `tenant` (its own, so the read targets' figures stay put) with the rollup
 * trigger enabled and disabled, `rounds` times each way, `each` lines per round, alternating so
 * both modes see the same machine. Lines written with the trigger off are rolled up afterwards
 * (billing.recompute_revenue_rollups), and the trigger is always enabled again.
 */
export async function measureWrites(baseUrl: string, tenant: BenchTenant, db: Client, rounds: number, each: number): Promise<WriteRun> {
  const location = (await gql(baseUrl, tenant, 'mutation($i: CreateLocationInput!) { createLocation(input: $i) { id } }', { i: { name: 'Write Bench', addressLineOne: '1 Main St', city: 'Portland' } })).createLocation.id;
  const record = () => gql(baseUrl, tenant, 'mutation($i: RecordChargeItemInput!) { recordChargeItem(input: $i) { id } }', {
    i: { locationId: location, itemCategory: 'Massage', itemType: 'SERVICE', itemName: '60-minute massage', paymentMedium: 'CARD', grossCents: 12000, discountCents: 1200 },
  });
  const insert = () => db.query(`insert into billing.charge_items (id, tenant_id, location_id, location_name, item_category, item_type, item_name, payment_medium, gross_cents, discount_cents, net_cents)
    values (gen_random_uuid(), $1, $2, 'Write Bench', 'Massage', 'service', '60-minute massage', 'card', 12000, 1200, 10800)`, [tenant.tenantId, location]);
  const samples = { app: { on: [] as number[], off: [] as number[] }, sql: { on: [] as number[], off: [] as number[] } };
  const trigger = async (enabled: boolean) => {
    for (const table of TABLES) await db.query(`alter table ${table} ${enabled ? 'enable' : 'disable'} trigger revenue_rollups_insert`);
  };
  try {
    for (let i = 0; i < 5; i++) await record(); // warm-up
    for (let round = 0; round < rounds; round++) {
      for (const mode of round % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        await trigger(mode === 'on');
        for (let i = 0; i < each; i++) samples.app[mode].push(await timed(record));
        for (let i = 0; i < each; i++) samples.sql[mode].push(await timed(insert));
      }
    }
  } finally {
    await trigger(true);
    await db.query(`select billing.recompute_revenue_rollups($1, '-infinity', 'infinity')`, [tenant.tenantId]);
  }
  return {
    app: { on: summarise(samples.app.on), off: summarise(samples.app.off) },
    sql: { on: summarise(samples.sql.on), off: summarise(samples.sql.off) },
    rounds,
  };
}
