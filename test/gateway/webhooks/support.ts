import { Client, Pool } from 'pg';
import pino from 'pino';
import { openJobQueue, type JobQueue } from '../../../platform/jobs/job-queue';
import type { WebhookSettings } from '../../../subgraphs/tenant/webhooks/settings';
import { WebhookJobs } from '../../../subgraphs/tenant/webhooks/webhook-jobs';
import { webhookMetricsHooks } from '../../../gateway/metrics/webhook-hooks';
import { request, type TestTenant } from '../../utils/e2e';
import { eventually } from '../../utils/eventually';

/** Fast settings for tests: one-second retries, short timeout and lease; receivers on 127.0.0.1 allowed (ALLOW_HTTP_WEBHOOKS=1); the production endpoint share and breaker. */
export const TEST_DISPATCH: WebhookSettings = {
  schedule: [1, 1, 1],
  timeoutMs: 1_000,
  leaseSeconds: 3,
  batchSize: 100,
  concurrency: 8,
  endpointConcurrency: 4,
  breakerFailures: 5,
  breakerCooldownSeconds: 1,
  disableAfterFailures: 20,
  disableAfterHours: 24,
  pollMs: 50,
  // Off: a worker fetching again at once opens its next connection while a timed-out one may still be
  // closing, which the fairness test's count of open sockets at a dead receiver reads as over-share.
  burst: false,
  retentionDays: 30,
  allowInternal: true,
};

/** The tenant subgraph's webhook jobs on a job queue and pool of their own, as a separate process would have; tests drive rounds by hand. */
export interface TestDispatcher {
  dispatcher: WebhookJobs;
  jobs: JobQueue;
  pool: Pool;
  close(): Promise<void>;
}

/** Opens a test dispatcher: `runOnce()` relays and delivers one batch. */
export async function testDispatcher(options: Partial<WebhookSettings> = {}): Promise<TestDispatcher> {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const jobs = await openJobQueue(process.env.DATABASE_URL!, { supervise: false, settings: { superviseSeconds: 5 }, onError: () => undefined });
  return {
    dispatcher: new WebhookJobs(jobs, { ...TEST_DISPATCH, ...options }, pino({ level: 'silent' }), webhookMetricsHooks),
    jobs,
    pool,
    async close() {
      await jobs.stop(1_000);
      await pool.end();
    },
  };
}

/** Runs dispatch rounds until `done()` holds (or fails after `timeoutMs`). */
export async function dispatchUntil(dispatcher: Pick<WebhookJobs, 'runOnce'>, done: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  await eventually(
    async () => {
      if (await done()) return true;
      await dispatcher.runOnce();
      return false;
    },
    { what: 'the dispatch reaching the expected state', timeoutMs, intervalMs: 50 },
  );
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

/** The advisory lock a test file holds while its dispatchers run (an arbitrary, fixed number). */
const ONE_DISPATCHING_FILE = 310_531;

/**
 * Registers hooks that let one test file at a time run webhook dispatchers: a dispatcher serves
 * every tenant of the shared test database, so two files' dispatchers, each with its own
 * settings (share, breaker, hooks), would take each other's jobs. Call it at the top level of the
 * file, before its describe blocks; a file waits in its first hook for the one before it.
 */
export function oneDispatchingFileAtATime(): void {
  let client: Client | undefined;
  beforeAll(async () => {
    client = new Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query('select pg_advisory_lock($1)', [ONE_DISPATCHING_FILE]);
  }, 180_000);
  afterAll(async () => {
    await client?.query('select pg_advisory_unlock($1)', [ONE_DISPATCHING_FILE]);
    await client?.end();
  });
}
