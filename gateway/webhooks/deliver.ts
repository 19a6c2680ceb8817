import { Webhook } from 'standardwebhooks';
import type { Pool } from 'pg';
import { webhookAttempts, webhookDeliveryLag } from '../metrics/instruments';
import { postWebhook } from './http-post';
import { nextAttemptDelayMs, parseRetryAfter } from './schedule';

/** Tunables of one delivery round. */
export interface DeliveryOptions {
  /** Outbox events relayed per round and schema. */
  batchSize: number;
  /** Deliveries claimed and attempted at once per round. */
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
  /** When the event entered the delivery log (delivery lag). */
  created_at: Date;
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
     returning d.id, d.tenant_id, d.payload, d.attempt_count, d.created_at,
       (select url from tenant.webhook_configs c where c.tenant_id = d.tenant_id) as url,
       (select secret from tenant.webhook_configs c where c.tenant_id = d.tenant_id) as secret,
       (select enabled from tenant.webhook_configs c where c.tenant_id = d.tenant_id) as enabled`,
    // Claim no more than can be in flight at once: every claimed delivery is attempted right away,
    // so the lease (timeout + margin) always outlasts its attempt.
    [options.concurrency, options.leaseSeconds],
  );
  const outcomes: Outcome[] = new Array(rows.length);
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const index = next++;
      const delivery = rows[index];
      outcomes[index] = delivery.url && delivery.secret && delivery.enabled ? await post(delivery, options.timeoutMs) : ENDPOINT_OFF;
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, rows.length) }, worker));
  if (rows.length > 0) await record(pool, rows, outcomes, options.schedule);
  return rows.length;
}

const ENDPOINT_OFF: Outcome = { status: null, error: 'endpoint disabled or removed', retryAfter: null, durationMs: 0 };

/**
 * Writes a round's bookkeeping in three statements whatever its size (attempts, delivery states,
 * endpoints to disable): per-event round trips were the dispatcher's bottleneck.
 */
async function record(pool: Pool, rows: Claimed[], outcomes: Outcome[], schedule: number[]): Promise<void> {
  const states = rows.map((delivery, i) => {
    const outcome = outcomes[i];
    const succeeded = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    // 410 Gone: the receiver asks never to be called again (docs/webhooks.md).
    const final = outcome.status === 410 || outcome === ENDPOINT_OFF;
    const delay = succeeded || final ? null : nextAttemptDelayMs(delivery.attempt_count, schedule, outcome.retryAfter);
    return { status: succeeded ? 'delivered' : delay === null ? 'failed' : 'pending', delay, error: succeeded ? null : (outcome.error ?? `HTTP ${outcome.status}`) };
  });
  await pool.query(
    `insert into tenant.webhook_attempts (delivery_id, tenant_id, attempt_number, status_code, duration_ms, error)
     select * from unnest($1::uuid[], $2::uuid[], $3::int[], $4::int[], $5::int[], $6::text[])`,
    [rows.map((r) => r.id), rows.map((r) => r.tenant_id), rows.map((r) => r.attempt_count), outcomes.map((o) => o.status), outcomes.map((o) => o.durationMs), outcomes.map((o) => o.error)],
  );
  await pool.query(
    `update tenant.webhook_deliveries d
        set status = s.status,
            delivered_at = case when s.status = 'delivered' then now() end,
            next_attempt_at = coalesce(now() + make_interval(secs => s.delay / 1000), d.next_attempt_at),
            locked_until = null, last_status = s.last_status, last_error = s.error, updated_at = now()
       from unnest($1::uuid[], $2::text[], $3::float8[], $4::int[], $5::text[], $6::int[]) as s(id, status, delay, last_status, error, attempt)
      -- Only while the claim is still this round's: a redelivery or a newer claim in between wins.
      where d.id = s.id and d.attempt_count = s.attempt and d.locked_until is not null`,
    [rows.map((r) => r.id), states.map((s) => s.status), states.map((s) => s.delay), outcomes.map((o) => o.status), states.map((s) => s.error), rows.map((r) => r.attempt_count)],
  );
  const now = Date.now();
  states.forEach((state, i) => {
    webhookAttempts.inc({ outcome: state.status === 'pending' ? 'retry' : state.status });
    if (state.status === 'delivered') webhookDeliveryLag.observe(Math.max(0, now - rows[i].created_at.getTime()) / 1000);
  });
  const gone = [...new Set(rows.filter((_, i) => outcomes[i].status === 410).map((r) => r.tenant_id))];
  if (gone.length > 0) await pool.query(`update tenant.webhook_configs set enabled = false, updated_at = now() where tenant_id = any($1::uuid[])`, [gone]);
}

/** One signed POST; the id is stable across retries, the timestamp is the attempt's. */
async function post(delivery: Claimed, timeoutMs: number): Promise<Outcome> {
  const timestamp = new Date();
  const started = performance.now();
  try {
    const signature = new Webhook(delivery.secret!).sign(delivery.id, timestamp, delivery.payload);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'HealthcarePracticePlatform-Webhooks/1.0',
      'webhook-id': delivery.id,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signature,
    };
    const response = await postWebhook(delivery.url!, headers, delivery.payload, timeoutMs);
    return { status: response.status, error: null, retryAfter: parseRetryAfter(response.retryAfter), durationMs: Math.round(performance.now() - started) };
  } catch (error) {
    const failure = error as Error & { code?: string };
    const message =
      failure.name === 'TimeoutError' || failure.name === 'AbortError'
        ? `timed out after ${timeoutMs} ms`
        : failure.code === 'EREFUSED_INTERNAL'
          ? 'refused: the host resolves to a non-public address'
          : `network error: ${failure.code ?? failure.message}`;
    return { status: null, error: message, retryAfter: null, durationMs: Math.round(performance.now() - started) };
  }
}
