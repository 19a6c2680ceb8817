import type { Pool } from 'pg';

/**
 * Moves new outbox events of one subgraph schema into the tenant's delivery log, in one
 * transaction: events the tenant subscribed to (enabled endpoint, type in its list) become
 * pending deliveries carrying the exact payload text that every attempt will sign; the rest are
 * only marked relayed. `SKIP LOCKED` lets several dispatchers relay side by side.
 */
export async function relayOutbox(pool: Pool, schema: string, batchSize: number): Promise<number> {
  const client = await pool.connect();
  const table = `${client.escapeIdentifier(schema)}.outbox_events`;
  try {
    await client.query('begin');
    const { rows } = await client.query<{ id: string }>(
      `select id from ${table} where relayed_at is null order by occurred_at limit $1 for update skip locked`,
      [batchSize],
    );
    if (rows.length === 0) {
      await client.query('commit');
      return 0;
    }
    const ids = rows.map((r) => r.id);
    await client.query(
      `insert into tenant.webhook_deliveries (id, tenant_id, event_type, payload, status, next_attempt_at, created_at)
       select e.id, e.tenant_id, e.type,
              json_build_object('type', e.type, 'timestamp', to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', e.data)::text,
              'pending', now(), now()
         from ${table} e
         join tenant.webhook_configs c on c.tenant_id = e.tenant_id
        where e.id = any($1::uuid[]) and c.enabled and c.url is not null and e.type = any(c.events)
       on conflict (id) do nothing`,
      [ids],
    );
    await client.query(`update ${table} set relayed_at = now() where id = any($1::uuid[])`, [ids]);
    await client.query('commit');
    return ids.length;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
