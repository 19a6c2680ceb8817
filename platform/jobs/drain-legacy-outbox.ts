import type { MikroORM } from '@mikro-orm/postgresql';
import { enqueue } from './job-queue';
import { WEBHOOK_EVENT_QUEUE, type WebhookEventJob } from './webhook-event';

const BATCH = 500;

/**
 * Moves events that an earlier release wrote to this subgraph's `<schema>.outbox_events` and that
 * were never relayed onto the job queue, each batch in one transaction with its deletion (the
 * event ids stay the webhook ids). Runs when the subgraph's background work starts; finds nothing
 * once drained. Returns how many moved.
 */
export async function drainLegacyOutbox(orm: MikroORM, schema: string): Promise<number> {
  const table = `"${schema.replace(/"/g, '""')}".outbox_events`;
  const [exists] = await orm.em.getConnection().execute<{ found: string | null }[]>(`select to_regclass(?) as found`, [`${table}`]);
  if (!exists?.found) return 0;
  let moved = 0;
  for (;;) {
    const count = await orm.em.fork().transactional(async (tx) => {
      const trx = tx.getTransactionContext();
      const rows = await tx.getConnection().execute<{ id: string; tenantId: string; type: string; data: Record<string, unknown>; occurredAt: string }[]>(
        `delete from ${table} where id in (select id from ${table} where relayed_at is null order by occurred_at limit ? for update skip locked)
         returning id, tenant_id as "tenantId", type, data, to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "occurredAt"`,
        [BATCH],
        'all',
        trx,
      );
      await enqueue(tx, WEBHOOK_EVENT_QUEUE, rows.map((event: WebhookEventJob) => ({ id: event.id, data: event })));
      return rows.length;
    });
    moved += count;
    if (count < BATCH) return moved;
  }
}
