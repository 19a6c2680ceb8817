import { randomUUID } from 'node:crypto';
import type { JobQueue } from '../../platform/jobs/job-queue';
import { WEBHOOK_EVENT_QUEUE, type WebhookEventJob } from '../../platform/jobs/webhook-event';
import { startHangingReceiver } from './hanging-receiver';
import { say } from './progress';
import { createTenant, type BenchTenant } from './tenant';
import { emptyCondition, type Condition } from './victim-stats';
import type { WebhookSink } from './webhook-sink';

/** Issue 31, finding 5: the attacker's events pending to its dead receiver. */
export const ATTACKER_EVENTS = 120;
/** The victim's single events per alone round, each sent once the one before arrived. */
export const ALONE_EVENTS = 5;

/** Where the app is and how to reach its job queue. */
export interface WebhookBench {
  url: string;
  operatorToken: string;
  jobs: JobQueue;
  /** The victim's healthy receiver. */
  sink: WebhookSink;
  /** Set to the victim's signing secret, for the sink's checks. */
  setSecret(secret: string): void;
}

/** The victim's event delivery alone and with the attacker's events pending, and how many attempts the dead receiver took. */
export interface WebhookComparison {
  alone: Condition;
  flooded: Condition;
  /** Connections the dead receivers accepted (attempts that held a slot until they were dropped or timed out). */
  deadAttempts: number;
  boundSeconds: number;
}

/** Points a tenant's webhooks at `url` (`PUT /tenant/webhook-config`); answers the signing secret. */
async function configure(baseUrl: string, tenant: BenchTenant, url: string, enabled: boolean): Promise<string> {
  const res = await fetch(`${baseUrl}/tenant/webhook-config`, {
    method: 'PUT',
    headers: { ...tenant.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ url, events: ['tenant.updated'], enabled }),
  });
  if (res.status !== 200) throw new Error(`webhook configuration failed: ${res.status} ${await res.text()} (is ALLOW_HTTP_WEBHOOKS=1 set on the app?)`);
  return ((await res.json()) as { webhookConfig: { secret: string } }).webhookConfig.secret;
}

/** Adds `count` event jobs for the tenant in one statement, what `recordEvent` adds (as bench/webhooks.ts does); answers their ids and when. */
async function emit(jobs: JobQueue, tenantId: string, count: number): Promise<{ ids: string[]; at: number }> {
  const at = Date.now();
  const occurredAt = new Date(at).toISOString();
  const events: WebhookEventJob[] = Array.from({ length: count }, (_, n) => ({ id: randomUUID(), tenantId, type: 'tenant.updated', data: { id: tenantId, changedFields: ['name'], n }, occurredAt }));
  await jobs.boss.insert(WEBHOOK_EVENT_QUEUE, events.map((event) => ({ id: event.id, data: event })));
  return { ids: events.map((e) => e.id), at };
}

/** Waits for an event at the sink; its arrival time, or null after `timeoutMs`. */
async function arrival(sink: WebhookSink, id: string, timeoutMs: number): Promise<number | null> {
  const deadline = Date.now() + timeoutMs;
  while (!sink.arrivals.has(id)) {
    if (Date.now() > deadline) return null;
    await new Promise((r) => setTimeout(r, 5));
  }
  return sink.arrivals.get(id)!;
}

/** Times one victim event from emit to arrival; a missing one counts at the bound, censored. */
async function timeVictimEvent(bench: WebhookBench, victim: BenchTenant, boundMs: number, samples: number[], condition: Condition): Promise<string | null> {
  const { ids: [id], at } = await emit(bench.jobs, victim.tenantId, 1);
  const arrived = await arrival(bench.sink, id, boundMs);
  samples.push(arrived === null ? boundMs : arrived - at);
  if (arrived === null) condition.censored += 1;
  return arrived === null ? id : null;
}

/**
 * `rounds` pairs of rounds, alone then flooded, reversed every other pair. Alone: ALONE_EVENTS
 * victim events one after another. Flooded: a fresh attacker tenant (so no breaker or
 * back-off state carries over) points at a fresh dead receiver, ATTACKER_EVENTS of its events are
 * added, and once the dispatcher holds the first of them the victim's single event is added and
 * timed. Then the attacker's endpoint is disabled and its receiver dropped: its attempts in flight
 * fail at once and the rest are settled as "endpoint disabled", so the next round starts clean.
 */
export async function compareWebhooks(bench: WebhookBench, rounds: number, boundSeconds: number): Promise<WebhookComparison> {
  const result: WebhookComparison = { alone: emptyCondition(), flooded: emptyCondition(), deadAttempts: 0, boundSeconds };
  const boundMs = boundSeconds * 1000;
  const victim = await createTenant(bench.url, bench.operatorToken, 'Noisy neighbour webhook victim');
  bench.setSecret(await configure(bench.url, victim, bench.sink.url, true));
  // One unmeasured event: the first delivery to a new endpoint opens its connection.
  await timeVictimEvent(bench, victim, boundMs, [], emptyCondition());
  for (let r = 0; r < rounds; r++) {
    for (const flooded of r % 2 === 0 ? [false, true] : [true, false]) {
      const samples: number[] = [];
      if (!flooded) {
        for (let i = 0; i < ALONE_EVENTS; i++) await timeVictimEvent(bench, victim, boundMs, samples, result.alone);
        result.alone.rounds.push(samples);
        continue;
      }
      const attacker = await createTenant(bench.url, bench.operatorToken, `Noisy neighbour webhook attacker ${r + 1}`);
      const dead = await startHangingReceiver();
      await configure(bench.url, attacker, dead.url, true);
      await emit(bench.jobs, attacker.tenantId, ATTACKER_EVENTS);
      const held = Date.now() + 5_000;
      while (dead.accepted === 0 && Date.now() < held) await new Promise((r) => setTimeout(r, 5));
      const late = await timeVictimEvent(bench, victim, boundMs, samples, result.flooded);
      result.flooded.rounds.push(samples);
      await configure(bench.url, attacker, dead.url, false);
      result.deadAttempts += dead.accepted;
      await dead.close();
      // A victim event still queued is let through before the next round, unmeasured.
      if (late) await arrival(bench.sink, late, 60_000);
      say(`webhooks, round ${r + 1}/${rounds}: victim event under flood ${late ? '>= ' : ''}${Math.round(samples[0])} ms; dead receiver took ${dead.accepted} connections`);
    }
  }
  return result;
}
