import { Pool } from 'pg';
import pino from 'pino';
import { WebhookDispatcher, type DispatcherOptions } from '../../../gateway/webhooks/dispatcher';
import { request, type TestTenant } from '../../utils/e2e';

/** Fast settings for tests: one-second retries, short timeout and lease. */
export const TEST_DISPATCH: DispatcherOptions = { schedule: [1, 1, 1], timeoutMs: 1_000, leaseSeconds: 3, batchSize: 100, concurrency: 8, pollMs: 50, retentionDays: 30 };

/** A dispatcher over its own pool, as a separate process would have. */
export function testDispatcher(options: Partial<DispatcherOptions> = {}): { dispatcher: WebhookDispatcher; pool: Pool; close(): Promise<void> } {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const dispatcher = new WebhookDispatcher(pool, { ...TEST_DISPATCH, ...options }, pino({ level: 'silent' }));
  return {
    dispatcher,
    pool,
    async close() {
      await dispatcher.stop();
      await pool.end();
    },
  };
}

/** Runs dispatch rounds until `done()` holds (or fails after `timeoutMs`). */
export async function dispatchUntil(dispatcher: WebhookDispatcher, done: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('dispatch did not reach the expected state in time');
    await dispatcher.runOnce();
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Points the tenant's webhook at `url` for `events`; returns the signing secret shown once. */
export async function configureWebhook(base: string, tenant: TestTenant, url: string, events: string[]): Promise<string> {
  const res = await request(`${base}/tenant/webhook-config`, {
    method: 'PUT',
    headers: { ...tenant.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ url, events, enabled: true }),
  });
  if (res.status !== 200) throw new Error(`webhook config failed: ${res.status} ${res.text}`);
  return res.body.webhookConfig.secret;
}

/** Changes the tenant's name: one `tenant.updated` event. */
export async function touchTenant(base: string, tenant: TestTenant, name: string): Promise<void> {
  const res = await request(`${base}/tenant/update`, { method: 'PUT', headers: { ...tenant.headers, 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
  if (res.status !== 200) throw new Error(`tenant update failed: ${res.status} ${res.text}`);
}
