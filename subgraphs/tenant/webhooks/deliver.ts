import { randomUUID } from 'node:crypto';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import type { Db, PgBoss } from 'pg-boss' with { 'resolution-mode': 'import' };
import { Webhook } from 'standardwebhooks';
import { WebhookDeliveryRepository, type AttemptOutcome, type ClaimedDelivery, type DeliverySettlement } from '../repositories/webhook-delivery.repository';
import { WebhookConfigRepository, type HealthPolicy, type HealthReport } from '../repositories/webhook-config.repository';
import { admitDeliveries, type AdmissionPolicy } from './endpoint-policy';
import { postWebhook } from './http-post';
import { deliveryJob, WEBHOOK_DELIVERY_QUEUE } from './queues';
import { nextAttemptDelayMs, parseRetryAfter } from './schedule';

/** Tunables of one delivery batch, with the per-endpoint share, breaker and disabling thresholds. */
export interface DeliveryOptions extends AdmissionPolicy, HealthPolicy {
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
  /** No request was made: the endpoint is disabled or gone (final, and no verdict on the receiver). */
  offline?: boolean;
}

const tracer = trace.getTracer('healthcare-practice-platform');

/**
 * Attempts the deliveries whose current job is one of `jobIds`. Each endpoint gets at most its
 * share of slots and nothing while its circuit breaker is open (endpoint-policy.ts): the
 * deliveries it may not send now get a later job and hold no slot. A delivery is claimed with a
 * lease (`locked_until`) only while its job is still the current one and nobody else holds it, so
 * a job superseded by a redelivery does nothing, and a job that pg-boss hands out again after a
 * crash claims the delivery once the crashed claim's lease has run out. Each claimed delivery is
 * posted as a Standard Webhooks 1.0 request, and its attempt, next state and next job, and its
 * endpoint's health, are written in one transaction.
 */
export async function deliverJobs(db: Db, boss: PgBoss, jobIds: string[], options: DeliveryOptions, hooks: DeliveryHooks = {}): Promise<Map<string, JobOutcome>> {
  const outcomes = new Map<string, JobOutcome>(jobIds.map((id) => [id, 'done']));
  const { claimed: rows, deferred } = await admitDeliveries(db, boss, jobIds, options);
  const claimed = new Set(rows.map((r) => r.job_id));
  const unclaimed = jobIds.filter((id) => !claimed.has(id) && !deferred.has(id));
  if (unclaimed.length > 0) {
    // Still current and pending but neither claimed nor deferred: another worker holds it (a live lease).
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
  await record(db, boss, rows, results, options, hooks);
  return outcomes;
}

const ENDPOINT_OFF: Outcome = { status: null, error: 'endpoint disabled or removed', retryAfter: null, durationMs: 0, offline: true };
const endpointDisabled = (reason: string): Outcome => ({ ...ENDPOINT_OFF, error: `endpoint disabled: ${reason}` });

/** One delivery attempt in its own span: tenant, event type and attempt number, never the URL or the body. */
function attempt(delivery: ClaimedDelivery, options: DeliveryOptions): Promise<Outcome> {
  if (!delivery.url || !delivery.secret || !delivery.enabled) return Promise.resolve(delivery.disabled_reason ? endpointDisabled(delivery.disabled_reason) : ENDPOINT_OFF);
  const attributes = { 'tenant.id': delivery.tenant_id, 'webhook.event_type': delivery.event_type, 'webhook.attempt': delivery.attempt_count };
  return tracer.startActiveSpan('webhook.delivery', { attributes }, async (span) => {
    try {
      const outcome = await post(delivery, options);
      if (outcome.status !== null) span.setAttribute('http.response.status_code', outcome.status);
      // The error text is the dispatcher's own (a status or an error code), never the receiver's body.
      if (!succeeded(outcome)) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error ?? `HTTP ${outcome.status}` });
      return outcome;
    } finally {
      span.end();
    }
  });
}

const succeeded = (outcome: Outcome): boolean => outcome.status !== null && outcome.status >= 200 && outcome.status < 300;

/** Each endpoint's verdict from a batch's attempts; deliveries of a switched-off endpoint say nothing about its receiver. */
function healthReports(rows: ClaimedDelivery[], outcomes: Outcome[]): HealthReport[] {
  const reports = new Map<string, HealthReport>();
  rows.forEach((delivery, i) => {
    const outcome = outcomes[i];
    if (outcome.offline) return;
    const report = reports.get(delivery.tenant_id) ?? { tenantId: delivery.tenant_id, succeeded: false, failures: 0, gone: false };
    if (succeeded(outcome)) report.succeeded = true;
    else report.failures += 1;
    if (outcome.status === 410) report.gone = true;
    reports.set(delivery.tenant_id, report);
  });
  return [...reports.values()];
}

/**
 * Writes a batch's bookkeeping in one transaction whatever its size (endpoint health first, then
 * attempts, delivery states with their next jobs): per-event round trips were the dispatcher's
 * bottleneck, and a delivery must never be left pending without a job. An endpoint disabled by
 * this batch has its deliveries failed with the reason, which its attempt records too.
 */
async function record(db: Db, boss: PgBoss, rows: ClaimedDelivery[], outcomes: Outcome[], options: DeliveryOptions, hooks: DeliveryHooks): Promise<void> {
  const now = Date.now();
  const tx = await db.beginTransaction!();
  let kept: Set<string>;
  let states: DeliverySettlement[];
  try {
    const disabled = await WebhookConfigRepository.recordHealthUnscoped(tx.db, healthReports(rows, outcomes), options);
    const logged = outcomes.map((outcome, i) => {
      const reason = disabled.get(rows[i].tenant_id);
      return reason && !succeeded(outcome) && !outcome.offline ? { ...outcome, error: `${outcome.error ?? `HTTP ${outcome.status}`}; endpoint disabled: ${reason}` } : outcome;
    });
    states = rows.map((delivery, i): DeliverySettlement => {
      const outcome = logged[i];
      const ok = succeeded(outcome);
      // 410 Gone: the receiver asks never to be called again (docs/webhooks.md); a disabled endpoint gets no retry.
      const final = outcome.offline || outcome.status === 410 || disabled.has(delivery.tenant_id);
      const delay = ok || final ? null : nextAttemptDelayMs(delivery.attempt_count, options.schedule, outcome.retryAfter);
      return {
        status: ok ? 'delivered' : delay === null ? 'failed' : 'pending',
        next: delay === null ? null : new Date(now + delay),
        nextJob: delay === null ? null : randomUUID(),
        error: ok ? null : (outcome.error ?? `HTTP ${outcome.status}`),
      };
    });
    await WebhookDeliveryRepository.recordAttemptsUnscoped(tx.db, rows, logged);
    kept = await WebhookDeliveryRepository.settleUnscoped(tx.db, rows, logged, states);
    const retries = rows.flatMap((r, i) => (kept.has(r.id) && states[i].nextJob ? [deliveryJob(states[i].nextJob!, r.id, r.tenant_id, states[i].next!)] : []));
    if (retries.length > 0) await boss.insert(WEBHOOK_DELIVERY_QUEUE, retries, { db: tx.db });
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
