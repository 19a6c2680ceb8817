import type { Db, PgBoss } from 'pg-boss' with { 'resolution-mode': 'import' };
import type { WebhookEventJob } from '../../shared/jobs/webhook-event';
import { WEBHOOK_DELIVERY_QUEUE } from './queues';

/**
 * Turns domain events into deliveries, inside the transaction `tx` that also completes their
 * jobs: events the tenant subscribed to (enabled endpoint, type in its list) become pending
 * deliveries carrying the exact payload text every attempt will sign, each with the job of its
 * first attempt; the rest are dropped. An event relayed twice (a retried job) is inserted once.
 * Returns how many deliveries were created.
 */
export async function relayEvents(tx: Db, boss: PgBoss, events: WebhookEventJob[]): Promise<number> {
  if (events.length === 0) return 0;
  const { rows } = await tx.executeSql(
    `insert into tenant.webhook_deliveries (id, tenant_id, event_type, payload, status, next_attempt_at, created_at, job_id)
     select e.id, e."tenantId", e.type,
            json_build_object('type', e.type, 'timestamp', e."occurredAt", 'data', e.data)::text,
            'pending', now(), now(), gen_random_uuid()
       from jsonb_to_recordset($1::jsonb) as e(id uuid, "tenantId" uuid, type text, data jsonb, "occurredAt" text)
       join tenant.webhook_configs c on c.tenant_id = e."tenantId"
      where c.enabled and c.url is not null and e.type = any(c.events)
     on conflict (id) do nothing
     returning id, job_id`,
    [JSON.stringify(events)],
  );
  const created = rows as { id: string; job_id: string }[];
  if (created.length > 0) await boss.insert(WEBHOOK_DELIVERY_QUEUE, created.map((r) => ({ id: r.job_id, data: { deliveryId: r.id } })), { db: tx });
  return created.length;
}
