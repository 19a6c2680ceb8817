import { Webhook } from 'standardwebhooks';
import type { Pool } from 'pg';
import { nextAttemptDelayMs, parseRetryAfter } from './schedule';

/** Tunables of one delivery round. */
export interface DeliveryOptions {
  batchSize: number;
  concurrency: number;
  timeoutMs: number;
  /** How long a claimed delivery stays ours; longer than timeoutMs, so a live attempt is never doubled. */
  leaseSeconds: number;
  schedule: number[];
}

interface Claimed {
  id: string;
  tenant_id: string;
  payload: string;
  attempt_count: number;
  url: string | null;
  secret: string | null;
  enabled: boolean | null;
}

/** What one HTTP attempt came to. */
interface Outcome {
  status: number | null;
  error: string | null;
  retryAfter: number | null;
  durationMs: number;
}

/**
 * Claims due deliveries (`FOR UPDATE SKIP LOCKED` plus a lease, so concurrent dispatchers never
 * send one event at the same time and a crashed one's claims expire), posts each as a Standard
 * Webhooks 1.0 request, and records the attempt. Returns how many were attempted.
 */
export async function deliverDue(pool: Pool, options: DeliveryOptions): Promise<number> {
  const { rows } = await pool.query<Claimed>(
    `with due as (
       select id from tenant.webhook_deliveries
        where status = 'pending' and next_attempt_at <= now() and (locked_until is null or locked_until < now())
        order by next_attempt_at limit $1 for update skip locked)
     update tenant.webhook_deliveries d
        set locked_until = now() + make_interval(secs => $2), attempt_count = d.attempt_count + 1, updated_at = now()
       from due where d.id = due.id
     returning d.id, d.tenant_id, d.payload, d.attempt_count,
       (select url from tenant.webhook_configs c where c.tenant_id = d.tenant_id) as url,
       (select secret from tenant.webhook_configs c where c.tenant_id = d.tenant_id) as secret,
       (select enabled from tenant.webhook_configs c where c.tenant_id = d.tenant_id) as enabled`,
    [options.batchSize, options.leaseSeconds],
  );
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const delivery = rows[next++];
      await attemptAndRecord(pool, delivery, options);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, rows.length) }, worker));
  return rows.length;
}

async function attemptAndRecord(pool: Pool, delivery: Claimed, options: DeliveryOptions): Promise<void> {
  const outcome: Outcome =
    delivery.url && delivery.secret && delivery.enabled
      ? await post(delivery, options.timeoutMs)
      : { status: null, error: 'endpoint disabled or removed', retryAfter: null, durationMs: 0 };
  await pool.query(
    `insert into tenant.webhook_attempts (delivery_id, tenant_id, attempt_number, status_code, duration_ms, error) values ($1, $2, $3, $4, $5, $6)`,
    [delivery.id, delivery.tenant_id, delivery.attempt_count, outcome.status, outcome.durationMs, outcome.error],
  );
  const succeeded = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  if (succeeded) {
    await pool.query(
      `update tenant.webhook_deliveries set status = 'delivered', delivered_at = now(), locked_until = null, last_status = $2, last_error = null, updated_at = now() where id = $1`,
      [delivery.id, outcome.status],
    );
    return;
  }
  const gone = outcome.status === 410;
  const endpointOff = outcome.error === 'endpoint disabled or removed';
  const delay = gone || endpointOff ? null : nextAttemptDelayMs(delivery.attempt_count, options.schedule, outcome.retryAfter);
  if (gone) {
    // 410 Gone: the receiver asks never to be called again (DESIGN.md section 6).
    await pool.query(`update tenant.webhook_configs set enabled = false, updated_at = now() where tenant_id = $1`, [delivery.tenant_id]);
  }
  await pool.query(
    `update tenant.webhook_deliveries
        set status = $2, next_attempt_at = coalesce(now() + make_interval(secs => $3::float8 / 1000), next_attempt_at),
            locked_until = null, last_status = $4, last_error = $5, updated_at = now()
      where id = $1`,
    [delivery.id, delay === null ? 'failed' : 'pending', delay, outcome.status, outcome.error ?? `HTTP ${outcome.status}`],
  );
}

/** One signed POST; the id is stable across retries, the timestamp is the attempt's. */
async function post(delivery: Claimed, timeoutMs: number): Promise<Outcome> {
  const timestamp = new Date();
  const started = performance.now();
  try {
    const signature = new Webhook(delivery.secret!).sign(delivery.id, timestamp, delivery.payload);
    const response = await fetch(delivery.url!, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'HealthcarePracticePlatform-Webhooks/1.0',
        'webhook-id': delivery.id,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body: delivery.payload,
    });
    await response.body?.cancel();
    return { status: response.status, error: null, retryAfter: parseRetryAfter(response.headers.get('retry-after')), durationMs: Math.round(performance.now() - started) };
  } catch (error) {
    const name = (error as Error).name;
    const message = name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : `network error: ${(error as Error).message}`;
    return { status: null, error: message, retryAfter: null, durationMs: Math.round(performance.now() - started) };
  }
}
