import { randomUUID } from 'node:crypto';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import type { Db, PgBoss } from 'pg-boss' with { 'resolution-mode': 'import' };
import { Webhook } from 'standardwebhooks';
import { postWebhook } from './http-post';
import { WEBHOOK_DELIVERY_QUEUE } from './queues';
import { nextAttemptDelayMs, parseRetryAfter } from './schedule';

/** Tunables of one delivery batch. */
export interface DeliveryOptions {
  /** Deliveries attempted at once. */
  concurrency: number;
  timeoutMs: number;
  /** How long a claimed delivery stays ours; longer than timeoutMs, so a live attempt is never doubled. */
  leaseSeconds: number;
  schedule: number[];
  /** ALLOW_HTTP_WEBHOOKS=1: internal addresses may be connected to (development, tests). */
  allowInternal: boolean;
}

/** What the process running the deliveries counts (the gateway's Prometheus metrics). */
export interface DeliveryHooks {
  /** One attempt recorded: its outcome, and for a delivery the time since the event entered the log. */
  attempted?(outcome: 'delivered' | 'retry' | 'failed', lagSeconds: number | null): void;
}

/** What became of each job handed in: done (attempted, or no longer current), or busy (its delivery is being sent right now). */
export type JobOutcome = 'done' | 'busy';

interface Claimed {
  id: string;
  job_id: string;
  tenant_id: string;
  event_type: string;
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

const tracer = trace.getTracer('healthcare-practice-platform');

/**
 * Attempts the deliveries whose current job is one of `jobIds`. A delivery is claimed with a
 * lease (`locked_until`) only while its job is still the current one and nobody else holds it, so
 * a job superseded by a redelivery does nothing, and a job that pg-boss hands out again after a
 * crash claims the delivery once the crashed claim's lease has run out. Each claimed delivery is
 * posted as a Standard Webhooks 1.0 request, and its attempt, next state and next job are written
 * in one transaction.
 */
export async function deliverJobs(db: Db, boss: PgBoss, jobIds: string[], options: DeliveryOptions, hooks: DeliveryHooks = {}): Promise<Map<string, JobOutcome>> {
  const outcomes = new Map<string, JobOutcome>(jobIds.map((id) => [id, 'done']));
  const { rows } = (await db.executeSql(
    `with due as (
       select id from tenant.webhook_deliveries
        where job_id = any($1::uuid[]) and status = 'pending' and (locked_until is null or locked_until < now())
        for update skip locked)
     update tenant.webhook_deliveries d
        set locked_until = now() + make_interval(secs => $2), attempt_count = d.attempt_count + 1, updated_at = now()
       from due where d.id = due.id
     returning d.id, d.job_id, d.tenant_id, d.event_type, d.payload, d.attempt_count, d.created_at,
       (select url from tenant.webhook_configs c where c.tenant_id = d.tenant_id) as url,
       (select secret from tenant.webhook_configs c where c.tenant_id = d.tenant_id) as secret,
       (select enabled from tenant.webhook_configs c where c.tenant_id = d.tenant_id) as enabled`,
    [jobIds, options.leaseSeconds],
  )) as { rows: Claimed[] };
  const claimed = new Set(rows.map((r) => r.job_id));
  const unclaimed = jobIds.filter((id) => !claimed.has(id));
  if (unclaimed.length > 0) {
    // Still current and pending but not claimable: another worker holds it (a live lease).
    const busy = await db.executeSql(`select job_id from tenant.webhook_deliveries where job_id = any($1::uuid[]) and status = 'pending'`, [unclaimed]);
    for (const row of busy.rows as { job_id: string }[]) outcomes.set(row.job_id, 'busy');
  }
  if (rows.length === 0) return outcomes;

  const results: Outcome[] = new Array(rows.length);
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const index = next++;
      results[index] = await attempt(rows[index], options);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, rows.length) }, worker));
  await record(db, boss, rows, results, options.schedule, hooks);
  return outcomes;
}

const ENDPOINT_OFF: Outcome = { status: null, error: 'endpoint disabled or removed', retryAfter: null, durationMs: 0 };

/** One delivery attempt in its own span: tenant, event type and attempt number, never the URL or the body. */
function attempt(delivery: Claimed, options: DeliveryOptions): Promise<Outcome> {
  if (!delivery.url || !delivery.secret || !delivery.enabled) return Promise.resolve(ENDPOINT_OFF);
  const attributes = { 'tenant.id': delivery.tenant_id, 'webhook.event_type': delivery.event_type, 'webhook.attempt': delivery.attempt_count };
  return tracer.startActiveSpan('webhook.delivery', { attributes }, async (span) => {
    try {
      const outcome = await post(delivery, options);
      if (outcome.status !== null) span.setAttribute('http.response.status_code', outcome.status);
      const succeeded = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
      // The error text is the dispatcher's own (a status or an error code), never the receiver's body.
      if (!succeeded) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error ?? `HTTP ${outcome.status}` });
      return outcome;
    } finally {
      span.end();
    }
  });
}

/**
 * Writes a batch's bookkeeping in one transaction whatever its size (attempts, delivery states
 * with their next jobs, endpoints to disable): per-event round trips were the dispatcher's
 * bottleneck, and a delivery must never be left pending without a job.
 */
async function record(db: Db, boss: PgBoss, rows: Claimed[], outcomes: Outcome[], schedule: number[], hooks: DeliveryHooks): Promise<void> {
  const now = Date.now();
  const states = rows.map((delivery, i) => {
    const outcome = outcomes[i];
    const succeeded = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    // 410 Gone: the receiver asks never to be called again (docs/webhooks.md).
    const final = outcome.status === 410 || outcome === ENDPOINT_OFF;
    const delay = succeeded || final ? null : nextAttemptDelayMs(delivery.attempt_count, schedule, outcome.retryAfter);
    return {
      status: succeeded ? 'delivered' : delay === null ? 'failed' : 'pending',
      next: delay === null ? null : new Date(now + delay),
      job: delay === null ? null : randomUUID(),
      error: succeeded ? null : (outcome.error ?? `HTTP ${outcome.status}`),
    };
  });
  const tx = await db.beginTransaction!();
  let kept: Set<string>;
  try {
    await tx.db.executeSql(
      `insert into tenant.webhook_attempts (delivery_id, tenant_id, attempt_number, status_code, duration_ms, error)
       select * from unnest($1::uuid[], $2::uuid[], $3::int[], $4::int[], $5::int[], $6::text[])`,
      [rows.map((r) => r.id), rows.map((r) => r.tenant_id), rows.map((r) => r.attempt_count), outcomes.map((o) => o.status), outcomes.map((o) => o.durationMs), outcomes.map((o) => o.error)],
    );
    const updated = await tx.db.executeSql(
      `update tenant.webhook_deliveries d
          set status = s.status,
              delivered_at = case when s.status = 'delivered' then now() end,
              next_attempt_at = coalesce(s.next, d.next_attempt_at),
              job_id = s.next_job,
              locked_until = null, last_status = s.last_status, last_error = s.error, updated_at = now()
         from unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::uuid[], $5::int[], $6::text[], $7::uuid[]) as s(id, status, next, next_job, last_status, error, claimed_job)
        -- Only while the claim is still this batch's: a redelivery in between wins.
        where d.id = s.id and d.job_id = s.claimed_job and d.locked_until is not null
        returning d.id`,
      [rows.map((r) => r.id), states.map((s) => s.status), states.map((s) => s.next), states.map((s) => s.job), outcomes.map((o) => o.status), states.map((s) => s.error), rows.map((r) => r.job_id)],
    );
    kept = new Set((updated.rows as { id: string }[]).map((r) => r.id));
    const retries = rows.flatMap((r, i) => (kept.has(r.id) && states[i].job ? [{ id: states[i].job!, data: { deliveryId: r.id }, startAfter: states[i].next! }] : []));
    if (retries.length > 0) await boss.insert(WEBHOOK_DELIVERY_QUEUE, retries, { db: tx.db });
    const gone = [...new Set(rows.filter((r, i) => kept.has(r.id) && outcomes[i].status === 410).map((r) => r.tenant_id))];
    if (gone.length > 0) await tx.db.executeSql(`update tenant.webhook_configs set enabled = false, updated_at = now() where tenant_id = any($1::uuid[])`, [gone]);
    await tx.commit();
  } catch (error) {
    await tx.rollback();
    throw error;
  }
  states.forEach((state, i) => {
    const lag = state.status === 'delivered' ? Math.max(0, now - new Date(rows[i].created_at).getTime()) / 1000 : null;
    hooks.attempted?.(state.status === 'pending' ? 'retry' : (state.status as 'delivered' | 'failed'), lag);
  });
}

/** One signed POST; the id is stable across retries, the timestamp is the attempt's. */
async function post(delivery: Claimed, options: DeliveryOptions): Promise<Outcome> {
  const { timeoutMs } = options;
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
    const response = await postWebhook(delivery.url!, headers, delivery.payload, options);
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
