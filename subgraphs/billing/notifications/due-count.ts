import type { Pool } from 'pg';

/**
 * Gift card e-mails due now and not yet sent (neither sent nor given up), for the metrics: the
 * sender's backlog. Reads the `notifications_pending_idx` partial index's rows only.
 */
export async function countDueNotifications(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ due: number }>(
    `select count(*)::int as due from billing.notifications where sent_at is null and failed_at is null and next_attempt_at <= now()`,
  );
  return rows[0].due;
}
