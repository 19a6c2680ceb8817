import { randomUUID } from 'node:crypto';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import type { Db, PgBoss } from 'pg-boss' with { 'resolution-mode': 'import' };
import { Webhook } from 'standardwebhooks';
import { WebhookConfigRepository } from '../repositories/webhook-config.repository';
import { WebhookDeliveryRepository, type AttemptOutcome, type ClaimedDelivery, type DeliverySettlement } from '../repositories/webhook-delivery.repository';
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

/** What one HTTP attempt came to. */
interface Outcome extends AttemptOutcome {
  retryAfter: number | null;
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
  const rows = await WebhookDeliveryRepository.claimUnscoped(db, jobIds, options.leaseSeconds);
  const claimed = new Set(rows.map((r) => r.job_id));
  const unclaimed = jobIds.filter((id) => !claimed.has(id));
  if (unclaimed.length > 0) {
    // Still current and pending but not claimable: another worker holds it (a live lease).
    for (const jobId of await WebhookDeliveryRepository.pendingJobsUnscoped(db, unclaimed)) outcomes.set(jobId, 'busy');
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
function attempt(delivery: ClaimedDelivery, options: DeliveryOptions): Promise<Outcome> {
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
async function record(db: Db, boss: PgBoss, rows: ClaimedDelivery[], outcomes: Outcome[], schedule: number[], hooks: DeliveryHooks): Promise<void> {
  const now = Date.now();
  const states = rows.map((delivery, i): DeliverySettlement => {
    const outcome = outcomes[i];
    const succeeded = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    // 410 Gone: the receiver asks never to be called again (docs/webhooks.md).
    const final = outcome.status === 410 || outcome === ENDPOINT_OFF;
    const delay = succeeded || final ? null : nextAttemptDelayMs(delivery.attempt_count, schedule, outcome.retryAfter);
    return {
      status: succeeded ? 'delivered' : delay === null ? 'failed' : 'pending',
      next: delay === null ? null : new Date(now + delay),
      nextJob: delay === null ? null : randomUUID(),
      error: succeeded ? null : (outcome.error ?? `HTTP ${outcome.status}`),
    };
  });
  const tx = await db.beginTransaction!();
  let kept: Set<string>;
  try {
    await WebhookDeliveryRepository.recordAttemptsUnscoped(tx.db, rows, outcomes);
    kept = await WebhookDeliveryRepository.settleUnscoped(tx.db, rows, outcomes, states);
    const retries = rows.flatMap((r, i) => (kept.has(r.id) && states[i].nextJob ? [{ id: states[i].nextJob!, data: { deliveryId: r.id }, startAfter: states[i].next! }] : []));
    if (retries.length > 0) await boss.insert(WEBHOOK_DELIVERY_QUEUE, retries, { db: tx.db });
    const gone = [...new Set(rows.filter((r, i) => kept.has(r.id) && outcomes[i].status === 410).map((r) => r.tenant_id))];
    if (gone.length > 0) await WebhookConfigRepository.disableUnscoped(tx.db, gone);
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
async function post(delivery: ClaimedDelivery, options: DeliveryOptions): Promise<Outcome> {
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
