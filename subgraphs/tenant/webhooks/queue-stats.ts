import type { Pool } from 'pg';

/** The delivery log's backlog at one moment. */
export interface WebhookQueueStats {
  /** Deliveries still pending (due now or waiting for a retry). */
  pending: number;
  /** Seconds the oldest pending delivery has waited since it entered the log; 0 when none. */
  oldestPendingSeconds: number;
  /** Seconds the most overdue delivery is past its due time: how far the dispatchers are behind; 0 when none. */
  overdueSeconds: number;
}

/** One cheap statement over the pending rows (the `webhook_deliveries_due_idx` partial index's rows). */
export async function readWebhookQueue(pool: Pool): Promise<WebhookQueueStats> {
  const { rows } = await pool.query<{ pending: number; oldest: number; overdue: number }>(
    `select count(*)::int as pending,
            coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as oldest,
            coalesce(extract(epoch from now() - min(next_attempt_at) filter (where next_attempt_at <= now())), 0)::float8 as overdue
       from tenant.webhook_deliveries where status = 'pending'`,
  );
  return { pending: rows[0].pending, oldestPendingSeconds: rows[0].oldest, overdueSeconds: rows[0].overdue };
}
