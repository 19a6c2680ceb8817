import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Pool } from 'pg';
import { createTestTenant } from '../../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../../utils/in-process';
import { startWebhookReceiver, type WebhookReceiver } from '../../utils/webhook-receiver';
import { configureWebhook, touchTenant, oneDispatchingFileAtATime } from './support';
import { eventually } from '../../utils/eventually';
import { spawnChild } from '../../utils/children';

const WORKER = join(__dirname, '../../../dist/gateway/worker.js');

/** `npm run worker`'s entry point as a real process, with test timings. */
function startWorker(): ChildProcess {
  return spawnChild(process.execPath, [WORKER], {
    // The lease is the timeout + 5 s: with 1 s (a 6 s lease) a worker starved of CPU on a loaded CI
    // machine lost its claims mid-batch and the other sent those events again (at-least-once, as
    // designed). 'None twice' is a property of workers that keep their lease, so give them 8 s.
    env: { ...process.env, LOG_LEVEL: 'warn', WEBHOOK_TIMEOUT_MS: '3000', WEBHOOK_POLL_MS: '50', WEBHOOK_RETRY_SCHEDULE: '1,1,1', ALLOW_HTTP_WEBHOOKS: '1' },
    stdio: 'ignore',
  });
}

const until = (condition: () => boolean | Promise<boolean>, timeoutMs = 90_000) => eventually(condition, { timeoutMs, intervalMs: 50 });

oneDispatchingFileAtATime();

describe('webhook dispatcher processes: at-least-once across crashes, never twice at once', () => {
  let server: InProcessApp;
  const receivers: WebhookReceiver[] = [];
  const workers: ChildProcess[] = [];
  const db = { pool: new Pool({ connectionString: process.env.DATABASE_URL, max: 2 }), close() { return this.pool.end(); } };

  beforeAll(async () => {
    // The app's tenant subgraph takes endpoints on 127.0.0.1 (its settings, read once at start).
    server = await startInProcessApp({ ALLOW_HTTP_WEBHOOKS: '1' });
  });
  afterAll(async () => {
    for (const worker of workers) if (worker.exitCode === null) worker.kill('SIGKILL');
    await Promise.all(receivers.map((r) => r.close()));
    await db.close();
    await server.close();
  });

  const status = async (tenantId: string) =>
    (await db.pool.query<{ status: string }>(`select status from tenant.webhook_deliveries where tenant_id = $1`, [tenantId])).rows.map((r) => r.status);

  it('a dispatcher killed with SIGKILL mid-delivery leaves the event to the next one', async () => {
    const tenant = await createTestTenant('Crash Clinic', server.url);
    let secret: string | null = null;
    const receiver = await startWebhookReceiver(() => secret);
    receivers.push(receiver);
    secret = await configureWebhook(server.url, tenant, receiver.url, ['tenant.updated']);
    receiver.script.push('hang');
    await touchTenant(server.url, tenant, 'Crash Clinic 2');

    const first = startWorker();
    workers.push(first);
    await until(() => receiver.received.length === 1);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    expect(await status(tenant.tenantId)).toEqual(['pending']);

    const second = startWorker();
    workers.push(second);
    await until(async () => (await status(tenant.tenantId))[0] === 'delivered');
    second.kill('SIGTERM');
    expect(receiver.received.length).toBeGreaterThanOrEqual(2);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
  }, 150_000);

  it('two dispatchers over one outbox deliver every event, none twice', async () => {
    const tenant = await createTestTenant('Busy Clinic', server.url);
    let secret: string | null = null;
    const receiver = await startWebhookReceiver(() => secret);
    receivers.push(receiver);
    secret = await configureWebhook(server.url, tenant, receiver.url, ['tenant.updated']);
    const EVENTS = 60;
    for (let i = 0; i < EVENTS; i += 1) await touchTenant(server.url, tenant, `Busy Clinic ${i}`);

    const pair = [startWorker(), startWorker()];
    workers.push(...pair);
    await until(async () => (await status(tenant.tenantId)).filter((s) => s === 'delivered').length === EVENTS);
    for (const worker of pair) worker.kill('SIGTERM');
    const ids = receiver.received.map((r) => r.id);
    expect(ids).toHaveLength(EVENTS);
    expect(new Set(ids).size).toBe(EVENTS);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
  }, 150_000);
});
