import type { Pool } from 'pg';

/**
 * Deletes what no longer needs keeping: delivered deliveries older than the retention window
 * (their attempts go with them), and outbox rows that were relayed that long ago and have no
 * delivery still pending. Failed deliveries stay for inspection and redelivery.
 */
export async function pruneDelivered(pool: Pool, outboxSchemas: string[], retentionDays: number): Promise<number> {
  const deliveries = await pool.query(
    `delete from tenant.webhook_deliveries where status = 'delivered' and delivered_at < now() - make_interval(days => $1)`,
    [retentionDays],
  );
  let pruned = deliveries.rowCount ?? 0;
  for (const schema of outboxSchemas) {
    const table = `"${schema.replace(/"/g, '""')}".outbox_events`;
    const outbox = await pool.query(
      `delete from ${table} e
        where e.relayed_at < now() - make_interval(days => $1)
          and not exists (select 1 from tenant.webhook_deliveries d where d.id = e.id and d.status = 'pending')`,
      [retentionDays],
    );
    pruned += outbox.rowCount ?? 0;
  }
  return pruned;
}
