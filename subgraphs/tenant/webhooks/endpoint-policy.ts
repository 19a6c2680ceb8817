import { randomUUID } from 'node:crypto';
import type { Db, PgBoss } from 'pg-boss' with { 'resolution-mode': 'import' };
import { WebhookDeliveryRepository, type ClaimedDelivery, type Deferral, type DueDelivery } from '../repositories/webhook-delivery.repository';
import { WebhookConfigRepository, type EndpointState } from '../repositories/webhook-config.repository';
import { deliveryJob, WEBHOOK_DELIVERY_QUEUE } from './queues';

/** The settings the admission applies (webhooks/settings.ts). */
export interface AdmissionPolicy {
  endpointConcurrency: number;
  breakerFailures: number;
  breakerCooldownSeconds: number;
  leaseSeconds: number;
}

/** What the policy made of the deliveries whose jobs came up. */
export interface Admission {
  /** Attempt now. */
  claim: DueDelivery[];
  /** Put off without an attempt, each to its time. */
  defer: { delivery: DueDelivery; at: Date }[];
  /** Endpoints whose claimed delivery is the half-open breaker's one probe. */
  probes: string[];
}

// An endpoint over its share was fetched only because two workers raced past pg-boss's group
// count: a slot frees within one attempt, so it comes back soon, spread over a second.
const OVER_SHARE_WAIT_MS = 1_000;

/**
 * Who gets a slot, per endpoint (the tenant's webhook configuration), oldest delivery first:
 * - a closed breaker lets in what is left of the endpoint's share (`endpointConcurrency` minus its
 *   deliveries in flight in every process); the rest wait briefly, holding nothing;
 * - an open breaker (`breakerFailures` failures in a row) defers every delivery to the end of the
 *   cool-down, spread over half a cool-down so they do not all return at once;
 * - once the cool-down is over, one delivery is the probe and the others wait for its verdict;
 * - a disabled or removed endpoint's deliveries are claimed, to be failed without connecting.
 */
export function decideAdmission(due: DueDelivery[], endpoints: Map<string, EndpointState>, inFlight: Map<string, number>, policy: AdmissionPolicy, now = Date.now(), random = Math.random): Admission {
  const admission: Admission = { claim: [], defer: [], probes: [] };
  const taken = new Map<string, number>();
  const cooldownMs = policy.breakerCooldownSeconds * 1000;
  for (const delivery of due) {
    const endpoint = endpoints.get(delivery.tenant_id);
    if (!endpoint || !endpoint.enabled || !endpoint.has_url) {
      admission.claim.push(delivery);
      continue;
    }
    const busy = (inFlight.get(delivery.tenant_id) ?? 0) + (taken.get(delivery.tenant_id) ?? 0);
    const tripped = endpoint.consecutive_failures >= policy.breakerFailures;
    let wait: number | null = null;
    if (endpoint.open) wait = new Date(endpoint.circuit_open_until!).getTime() - now + random() * cooldownMs * 0.5;
    else if (tripped && busy > 0) wait = policy.leaseSeconds * 1000 + random() * cooldownMs * 0.5;
    else if (busy >= policy.endpointConcurrency) wait = OVER_SHARE_WAIT_MS * (1 + random());
    if (wait !== null) {
      admission.defer.push({ delivery, at: new Date(now + Math.max(wait, 0)) });
      continue;
    }
    if (tripped) admission.probes.push(delivery.tenant_id);
    taken.set(delivery.tenant_id, (taken.get(delivery.tenant_id) ?? 0) + 1);
    admission.claim.push(delivery);
  }
  return admission;
}

/**
 * Admits the deliveries whose jobs are `jobIds`, in one transaction that holds their endpoints'
 * rows: claims (with a lease) those the policy lets in, and gives each deferred one a new job due
 * later, counting no attempt. Returns the claimed deliveries and the jobs that were deferred.
 */
export async function admitDeliveries(db: Db, boss: PgBoss, jobIds: string[], policy: AdmissionPolicy): Promise<{ claimed: ClaimedDelivery[]; deferred: Set<string> }> {
  const tx = await db.beginTransaction!();
  try {
    const due = await WebhookDeliveryRepository.dueUnscoped(tx.db, jobIds);
    if (due.length === 0) {
      await tx.commit();
      return { claimed: [], deferred: new Set() };
    }
    const tenantIds = [...new Set(due.map((d) => d.tenant_id))];
    // Locked first, counted after: the count then sees every admission to these endpoints that committed before.
    const endpoints = await WebhookConfigRepository.lockUnscoped(tx.db, tenantIds);
    const inFlight = await WebhookConfigRepository.inFlightUnscoped(tx.db, tenantIds);
    const admission = decideAdmission(due, endpoints, inFlight, policy);
    const claimed = admission.claim.length > 0 ? await WebhookDeliveryRepository.claimUnscoped(tx.db, admission.claim.map((d) => d.job_id), policy.leaseSeconds) : [];
    await WebhookConfigRepository.markProbingUnscoped(tx.db, [...new Set(admission.probes)], policy.leaseSeconds);
    const deferrals: Deferral[] = admission.defer.map(({ delivery, at }) => ({ ...delivery, next_job: randomUUID(), at }));
    const written = await WebhookDeliveryRepository.deferUnscoped(tx.db, deferrals);
    if (written.length > 0) await boss.insert(WEBHOOK_DELIVERY_QUEUE, written.map((d) => deliveryJob(d.next_job, d.id, d.tenant_id, d.at)), { db: tx.db });
    await tx.commit();
    return { claimed, deferred: new Set(written.map((d) => d.job_id)) };
  } catch (error) {
    await tx.rollback();
    throw error;
  }
}
