import type { Db } from 'pg-boss' with { 'resolution-mode': 'import' };

/**
 * Deletes delivered deliveries older than the retention window (their attempts go with them).
 * Failed deliveries stay for inspection and redelivery.
 */
export async function pruneDelivered(db: Db, retentionDays: number): Promise<number> {
  const { rows } = await db.executeSql(
    `with gone as (delete from tenant.webhook_deliveries where status = 'delivered' and delivered_at < now() - make_interval(days => $1) returning 1)
     select count(*)::int as pruned from gone`,
    [retentionDays],
  );
  return (rows[0] as { pruned: number }).pruned;
}
