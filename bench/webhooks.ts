import { Pool } from 'pg';
import { describeMachine, formatMachine } from './lib/machine';
import { say } from './lib/progress';
import { writeSection } from './lib/results-file';
import { markdownTable } from './lib/table';
import { createTenant } from './lib/tenant';
import { startWebhookSink, type WebhookSink } from './lib/webhook-sink';
import type { BenchContext } from './tenant-public';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const STEADY_RATE = 500;
const STEADY_SECONDS = 10;
const TARGET_EVENTS_PER_SECOND = 500;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Inserts `count` outbox events for the tenant in one statement (what `recordEvent` writes, minus the domain change). */
async function insertEvents(pool: Pool, tenantId: string, count: number): Promise<void> {
  await pool.query(
    `insert into tenant.outbox_events (id, tenant_id, type, data, occurred_at)
     select gen_random_uuid(), $1::uuid, 'tenant.updated', jsonb_build_object('id', $1::text, 'changedFields', jsonb_build_array('name'), 'n', g), clock_timestamp()
       from generate_series(1, $2) g`,
    [tenantId, count],
  );
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

/** Lag (arrival minus the event's occurred_at) of every event received, sorted. */
async function lags(pool: Pool, tenantId: string, sink: WebhookSink): Promise<number[]> {
  const { rows } = await pool.query<{ id: string; at: string }>(`select id, extract(epoch from occurred_at) * 1000 as at from tenant.outbox_events where tenant_id = $1`, [tenantId]);
  return rows.filter((r) => sink.arrivals.has(r.id)).map((r) => sink.arrivals.get(r.id)! - Number(r.at)).sort((a, b) => a - b);
}

/**
 * Issue 7's performance check: 10,000 events through the one dispatcher of the all-in-one app
 * (its in-process dispatcher, default settings) to a receiver on 127.0.0.1, first as a backlog
 * (all written at once: drain rate), then at a steady 500 events/s (lag in normal running).
 */
export async function benchWebhooks(ctx: BenchContext): Promise<{ markdown: string; valid: boolean }> {
  const pool = new Pool({ connectionString: ctx.databaseUrl, max: 4 });
  ctx.teardown.add('webhook pool', () => pool.end());
  let secret = '';
  const sink = await startWebhookSink(() => secret);
  ctx.teardown.add('webhook sink', () => sink.close());
  const runs: { name: string; events: number; seconds: number; lag: number[] }[] = [];
  for (const mode of ['backlog', 'steady'] as const) {
    const tenant = await createTenant(ctx.app.url, ctx.app.operatorToken, `Webhook bench ${mode}`);
    const res = await fetch(`${ctx.app.url}/tenant/webhook-config`, {
      method: 'PUT',
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ url: sink.url, events: ['tenant.updated'], enabled: true }),
    });
    if (res.status !== 200) throw new Error(`webhook configuration failed: ${res.status} ${await res.text()} (is ALLOW_HTTP_WEBHOOKS=1 set on the app?)`);
    secret = ((await res.json()) as { webhookConfig: { secret: string } }).webhookConfig.secret;
    sink.arrivals.clear();
    const count = mode === 'backlog' ? EVENTS : STEADY_RATE * STEADY_SECONDS;
    say(`webhooks: ${count} events, ${mode === 'backlog' ? 'written at once' : `${STEADY_RATE}/s for ${STEADY_SECONDS} s`}`);
    const started = Date.now();
    if (mode === 'backlog') await insertEvents(pool, tenant.tenantId, count);
    else {
      for (let second = 0; second < STEADY_SECONDS * 10; second += 1) {
        const tick = started + second * 100;
        await new Promise((r) => setTimeout(r, Math.max(0, tick - Date.now())));
        await insertEvents(pool, tenant.tenantId, STEADY_RATE / 10);
      }
    }
    const complete = await drained(sink, count, 180_000);
    const seconds = (Math.max(...sink.arrivals.values()) - started) / 1000;
    runs.push({ name: mode, events: sink.arrivals.size, seconds, lag: await lags(pool, tenant.tenantId, sink) });
    if (!complete) say(`webhooks: only ${sink.arrivals.size} of ${count} arrived in time`);
  }
  const backlog = runs[0];
  const rate = backlog.events / backlog.seconds;
  const valid = runs.every((r, i) => r.events === (i === 0 ? EVENTS : STEADY_RATE * STEADY_SECONDS)) && sink.failedVerification === 0 && sink.verified > 0;
  const table = markdownTable(
    ['run', 'events', 'seconds', 'events/s', 'lag p50 ms', 'lag p99 ms'],
    runs.map((r) => [r.name, String(r.events), r.seconds.toFixed(1), (r.events / r.seconds).toFixed(0), String(Math.round(percentile(r.lag, 50))), String(Math.round(percentile(r.lag, 99)))]),
    [false, true, true, true, true, true],
  );
  const markdown = `## Webhook delivery: outbox -> one dispatcher -> receiver

- Date: ${new Date().toISOString()}
- Machine: ${formatMachine(describeMachine())}
- Dispatcher: the all-in-one app's in-process one, default settings (concurrency 32, batch 200); database: ${ctx.databaseLabel}; receiver: node http on 127.0.0.1 answering 204, checking every 100th signature with standardwebhooks
- backlog: ${EVENTS} events written to the outbox at once, time until the last arrived; steady: ${STEADY_RATE} events/s for ${STEADY_SECONDS} s. Lag = arrival minus the event's occurred_at.

${table}

Signatures checked: ${sink.verified} verified, ${sink.failedVerification} failed; duplicate deliveries: ${sink.duplicates}.

| target | wanted | measured | verdict |
|---|---|---|---|
| events/s (backlog) | >= ${TARGET_EVENTS_PER_SECOND} | ${rate.toFixed(0)} | ${rate >= TARGET_EVENTS_PER_SECOND ? 'PASS' : 'MISS'} |

${valid ? 'Valid run: every event arrived and every checked signature verified.' : '**INVALID run**: events missing or signatures failed.'}`;
  writeSection(ctx.resultsFile, 'webhooks', markdown, ctx.resultsHeader);
  return { markdown, valid };
}
