import { randomUUID } from 'node:crypto';
import { openJobQueue, type JobQueue } from '../platform/jobs/job-queue';
import { WEBHOOK_EVENT_QUEUE, type WebhookEventJob } from '../platform/jobs/webhook-event';
import { benchSetting, type BenchContext } from './lib/context';
import { describeMachine, formatMachine } from './lib/machine';
import { say } from './lib/progress';
import { markdownTable } from './lib/table';
import { createTenant } from './lib/tenant';
import { startWebhookSink, type WebhookSink } from './lib/webhook-sink';

const STEADY_RATE = 500;
const TARGET_EVENTS_PER_SECOND = 500;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Adds `count` event jobs for the tenant in one statement (what `recordEvent` adds, minus the domain change); remembers when each occurred. */
async function insertEvents(jobs: JobQueue, tenantId: string, count: number, occurred: Map<string, number>): Promise<void> {
  const now = new Date();
  const events: WebhookEventJob[] = Array.from({ length: count }, (_, n) => ({ id: randomUUID(), tenantId, type: 'tenant.updated', data: { id: tenantId, changedFields: ['name'], n }, occurredAt: now.toISOString() }));
  for (const event of events) occurred.set(event.id, now.getTime());
  await jobs.boss.insert(WEBHOOK_EVENT_QUEUE, events.map((event) => ({ id: event.id, data: event })));
}

/** Waits until the sink saw `count` distinct events or the time runs out. */
async function drained(sink: WebhookSink, count: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (sink.arrivals.size < count) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

/** Lag (arrival minus when the event occurred) of every event received, sorted. */
function lags(occurred: Map<string, number>, sink: WebhookSink): number[] {
  return [...occurred].filter(([id]) => sink.arrivals.has(id)).map(([id, at]) => sink.arrivals.get(id)! - at).sort((a, b) => a - b);
}

/**
 * Issue 7's performance check: 10,000 events through the webhook job workers of the all-in-one
 * app (the first worker's, default settings) to a receiver on 127.0.0.1, as a backlog over several
 * endpoints (all added at once: drain rate), a smaller backlog to one endpoint (its share's rate),
 * then at a steady 500 events/s over several endpoints (lag in normal running).
 */
export async function benchWebhooks(ctx: BenchContext): Promise<{ markdown: string; valid: boolean }> {
  const events = benchSetting(ctx, 'BENCH_WEBHOOK_EVENTS', 10_000, 60);
  // Endpoints the backlog is spread over: one endpoint holds at most WEBHOOK_ENDPOINT_CONCURRENCY (4)
  // deliveries at once (docs/webhooks.md, Fairness between endpoints), so a single endpoint measures
  // that share, not the dispatcher; both are reported.
  const backlogEndpoints = benchSetting(ctx, 'BENCH_WEBHOOK_ENDPOINTS', 8, 2);
  const steadySeconds = ctx.smoke ? 1 : 10;
  const steadyRate = ctx.smoke ? 100 : STEADY_RATE;
  const jobs = await openJobQueue(ctx.databaseUrl, { supervise: false, settings: { superviseSeconds: 5 }, poolMax: 2, onError: (error) => say(`job queue: ${error.message}`) });
  ctx.teardown.add('webhook job queue', () => jobs.stop(1_000));
  const secrets = new Map<string, string>();
  const sink = await startWebhookSink((path) => secrets.get(path) ?? '');
  ctx.teardown.add('webhook sink', () => sink.close());
  const single = Math.min(events, ctx.smoke ? 20 : 2_000);
  const plan = [
    { name: `backlog, ${backlogEndpoints} endpoints`, backlog: true, endpoints: backlogEndpoints, count: events },
    { name: 'backlog, 1 endpoint', backlog: true, endpoints: 1, count: single },
    { name: `steady, ${backlogEndpoints} endpoints`, backlog: false, endpoints: backlogEndpoints, count: steadyRate * steadySeconds },
  ];
  const runs: { name: string; events: number; expected: number; seconds: number; lag: number[] }[] = [];
  for (const [index, run] of plan.entries()) {
    const tenantIds: string[] = [];
    for (let e = 0; e < run.endpoints; e++) {
      const tenant = await createTenant(ctx.app.url, ctx.app.operatorToken, `Webhook bench ${index}.${e}`);
      const path = `/hooks/${index}/${e}`;
      const res = await fetch(`${ctx.app.url}/tenant/webhook-config`, {
        method: 'PUT',
        headers: { ...tenant.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${new URL(sink.url).origin}${path}`, events: ['tenant.updated'], enabled: true }),
      });
      if (res.status !== 200) throw new Error(`webhook configuration failed: ${res.status} ${await res.text()} (is ALLOW_HTTP_WEBHOOKS=1 set on the app?)`);
      secrets.set(path, ((await res.json()) as { webhookConfig: { secret: string } }).webhookConfig.secret);
      tenantIds.push(tenant.tenantId);
    }
    sink.arrivals.clear();
    const occurred = new Map<string, number>();
    /** Adds `count` events, spread evenly over the run's endpoints. */
    const add = async (count: number) => {
      for (const [e, tenantId] of tenantIds.entries()) {
        const share = Math.floor(count / tenantIds.length) + (e < count % tenantIds.length ? 1 : 0);
        if (share > 0) await insertEvents(jobs, tenantId, share, occurred);
      }
    };
    say(`webhooks: ${run.name}: ${run.count} events, ${run.backlog ? 'written at once' : `${steadyRate}/s for ${steadySeconds} s`}`);
    const started = Date.now();
    if (run.backlog) await add(run.count);
    else {
      for (let tenth = 0; tenth < steadySeconds * 10; tenth += 1) {
        await new Promise((r) => setTimeout(r, Math.max(0, started + tenth * 100 - Date.now())));
        await add(steadyRate / 10);
      }
    }
    const complete = await drained(sink, run.count, ctx.smoke ? 30_000 : 180_000);
    const seconds = (Math.max(...sink.arrivals.values()) - started) / 1000;
    runs.push({ name: run.name, events: sink.arrivals.size, expected: run.count, seconds, lag: lags(occurred, sink) });
    if (!complete) say(`webhooks: only ${sink.arrivals.size} of ${run.count} arrived in time`);
  }
  const backlog = runs[0];
  const rate = backlog.events / backlog.seconds;
  const valid = runs.every((r) => r.events === r.expected) && sink.failedVerification === 0 && sink.verified > 0;
  const table = markdownTable(
    ['run', 'events', 'seconds', 'events/s', 'lag p50 ms', 'lag p99 ms'],
    runs.map((r) => [r.name, String(r.events), r.seconds.toFixed(1), (r.events / r.seconds).toFixed(0), String(Math.round(percentile(r.lag, 50))), String(Math.round(percentile(r.lag, 99)))]),
    [false, true, true, true, true, true],
  );
  const markdown = `## Webhook delivery: event jobs -> one process's webhook job workers -> receiver

- Date: ${new Date().toISOString()}
- Machine: ${formatMachine(describeMachine())}
- Workers: the tenant subgraph's webhook job workers (pg-boss) in the all-in-one app's first process, default settings (32 delivery slots, one job each; events relayed in batches of 200); database: ${ctx.databaseLabel}; receiver: node http on 127.0.0.1 answering 204, checking every 100th signature with standardwebhooks
- backlog: event jobs added at once, time until the last arrived; steady: ${steadyRate} events/s for ${steadySeconds} s. Lag = arrival minus when the event was added. Events are spread evenly over the run's endpoints (one tenant each): one endpoint holds at most its share of deliveries at once (WEBHOOK_ENDPOINT_CONCURRENCY, 4 by default: docs/webhooks.md, Fairness between endpoints), so the one-endpoint line measures that share and the target is the dispatcher's, over ${backlogEndpoints} endpoints.

${table}

Signatures checked: ${sink.verified} verified, ${sink.failedVerification} failed; duplicate deliveries: ${sink.duplicates}.

| target | wanted | measured | verdict |
|---|---|---|---|
| events/s (backlog, ${backlogEndpoints} endpoints) | >= ${TARGET_EVENTS_PER_SECOND} | ${rate.toFixed(0)} | ${rate >= TARGET_EVENTS_PER_SECOND ? 'PASS' : 'MISS'} |

${valid ? 'Valid run: every event arrived and every checked signature verified.' : '**INVALID run**: events missing or signatures failed.'}`;
  ctx.record('webhooks', markdown);
  return { markdown, valid };
}
