/**
 * Abuse suite, webhook fairness (issue 31, finding 5): one tenant's webhooks delayed every
 * tenant's. 120 events to a receiver that accepts the connection and never answers held the
 * dispatcher's shared slots for the full timeout each, and another tenant's single event arrived
 * after 36 s. Here tenant A floods a dead receiver and tenant B sends one event to a healthy one,
 * through a real dispatcher (its job workers, short timeouts) and real HTTP receivers:
 * - B's event is delivered while A's deliveries are still outstanding, after only a handful of A's attempts;
 * - A never holds more than its share of connections at once;
 * - A's circuit breaker opens (its deliveries wait without an attempt; one probe at a time), and
 *   after the run of failures A's endpoint is disabled with a notice in GraphQL, REST and the log;
 * - events while disabled are logged as failed, and re-enabling delivers again.
 */
import { Pool } from 'pg';
import { createTestTenant, request, type TestTenant } from '../utils/e2e';
import { eventually } from '../utils/eventually';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';
import { startDeadReceiver, startWebhookReceiver, type DeadReceiver, type WebhookReceiver } from '../utils/webhook-receiver';
import { configureWebhook, testDispatcher, touchTenant, type TestDispatcher, oneDispatchingFileAtATime } from '../gateway/webhooks/support';

jest.setTimeout(120_000);

const EVENTS = 40;
const SHARE = 2;
const BREAKER_FAILURES = 4;
const DISABLE_AFTER = 8;
/** A's attempts recorded by the time B's event arrives: a few rounds of its share at most (without the fix: most of the flood). */
const MAX_A_ATTEMPTS_BEFORE_B = 3 * SHARE;

const until = <T>(what: string, check: () => T | Promise<T>, timeoutMs = 60_000) => eventually(check, { what, timeoutMs, intervalMs: 50 });

oneDispatchingFileAtATime();

describe('webhook fairness: a dead receiver holds only its own endpoint share', () => {
  let server: InProcessApp;
  let dispatch: TestDispatcher;
  let dead: DeadReceiver;
  const receivers: WebhookReceiver[] = [];
  const db = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });

  beforeAll(async () => {
    server = await startInProcessApp({ ALLOW_HTTP_WEBHOOKS: '1' });
    dispatch = await testDispatcher({
      concurrency: 8,
      endpointConcurrency: SHARE,
      timeoutMs: 1_000,
      leaseSeconds: 3,
      schedule: [1, 1, 1, 1, 1, 1],
      breakerFailures: BREAKER_FAILURES,
      breakerCooldownSeconds: 1,
      disableAfterFailures: DISABLE_AFTER,
      disableAfterHours: 0,
    });
    dead = await startDeadReceiver();
  });
  afterAll(async () => {
    await dispatch.dispatcher.stop();
    await dispatch.close();
    await dead.close();
    await Promise.all(receivers.map((r) => r.close()));
    await db.end();
    await server.close();
  });

  const attemptsOf = async (tenant: TestTenant) => (await db.query<{ n: number }>(`select count(*)::int as n from tenant.webhook_attempts where tenant_id = $1`, [tenant.tenantId])).rows[0].n;
  const pendingOf = async (tenant: TestTenant) =>
    (await db.query<{ n: number }>(`select count(*)::int as n from tenant.webhook_deliveries where tenant_id = $1 and status = 'pending'`, [tenant.tenantId])).rows[0].n;
  const breakerOpen = async (tenant: TestTenant) => (await db.query(`select 1 from tenant.webhook_configs where tenant_id = $1 and circuit_open_until > now()`, [tenant.tenantId])).rowCount === 1;
  const healthy = async (secret: () => string | null) => {
    const receiver = await startWebhookReceiver(secret);
    receivers.push(receiver);
    return receiver;
  };
  const CONFIG = '{ webhookConfig { enabled disabledAt disabledReason } }';
  const LOG = '{ webhookDeliveries(first: 100) { totalCount nodes { id status attemptCount lastError attempts { error } } } }';

  it('delivers B while A floods a dead receiver, trips A, disables it with a notice, and re-enables it', async () => {
    const a = await createTestTenant('Flooding Clinic', server.url);
    const b = await createTestTenant('Quiet Clinic', server.url);
    const aSecret = await configureWebhook(server.url, a, dead.url, ['tenant.updated']);
    let bSecret: string | null = null;
    const bReceiver = await healthy(() => bSecret);
    bSecret = await configureWebhook(server.url, b, bReceiver.url, ['tenant.updated']);

    // A's flood is queued first; B's one event comes last, behind all of it.
    for (let i = 0; i < EVENTS; i += 1) await touchTenant(server.url, a, `Flooding Clinic ${i}`);
    await touchTenant(server.url, b, 'Quiet Clinic 2');
    await dispatch.dispatcher.start();

    // B gets through while A's deliveries are still outstanding, after a few rounds of A's share at most.
    await until("B's delivery", () => bReceiver.received.length === 1);
    expect(await attemptsOf(a)).toBeLessThanOrEqual(MAX_A_ATTEMPTS_BEFORE_B);
    expect(await pendingOf(a)).toBeGreaterThan(EVENTS - MAX_A_ATTEMPTS_BEFORE_B);
    expect(bReceiver.received[0]).toMatchObject({ verified: true, payload: { type: 'tenant.updated' } });

    // A's run of failures opens its breaker: its deliveries wait without attempts.
    await until("A's breaker opening", () => breakerOpen(a));

    // ...and, after DISABLE_AFTER failures in a row, the platform disables A's endpoint with a notice.
    const disabled = await until("A's endpoint disabled", async () => {
      const config = (await a.graphql(CONFIG)).body.data.webhookConfig;
      return config.disabledAt ? config : null;
    });
    expect(disabled).toMatchObject({ enabled: false, disabledReason: expect.stringMatching(/^every delivery attempt failed: \d+ in a row since /) });
    const rest = await request(`${server.url}/tenant/webhook-config`, { headers: a.headers });
    expect(rest.body).toMatchObject({ enabled: false, disabledAt: disabled.disabledAt, disabledReason: disabled.disabledReason });

    // A never held more than its share of connections; once the breaker opened, probes went one at a time.
    expect(dead.maxOpen).toBeLessThanOrEqual(SHARE);
    const attempted = dead.requests.length;
    expect(attempted).toBeGreaterThanOrEqual(DISABLE_AFTER);
    expect(attempted).toBeLessThanOrEqual(DISABLE_AFTER + SHARE);
    expect(dead.requests.slice(BREAKER_FAILURES + SHARE).every((r) => r.openAtArrival === 1)).toBe(true);

    // The delivery log tells the tenant: the attempt that disabled it, and every delivery still queued, fail with the reason.
    await until("A's queued deliveries failing", async () => (await pendingOf(a)) === 0);
    const log = (await a.graphql(LOG)).body.data.webhookDeliveries;
    expect(log.totalCount).toBe(EVENTS);
    const errors: string[] = log.nodes.map((d: { lastError: string }) => d.lastError);
    expect(errors.every((e) => e.includes(`endpoint disabled: ${disabled.disabledReason}`))).toBe(true);
    const neverTried = log.nodes.filter((d: { attempts: { error: string }[] }) => d.attempts.every((t) => t.error.startsWith('endpoint disabled')));
    expect(neverTried.length).toBeGreaterThan(EVENTS / 2);
    expect(dead.requests.length).toBe(attempted);

    // An event while disabled is logged as failed with the reason, and not sent.
    await touchTenant(server.url, a, 'Flooding Clinic, disabled');
    const missed = await until('the event logged while disabled', async () => (await a.graphql(LOG)).body.data.webhookDeliveries.nodes.find((d: { lastError: string; attemptCount: number }) => d.attemptCount === 0));
    expect(missed).toMatchObject({ status: 'FAILED', lastError: `endpoint disabled: ${disabled.disabledReason}` });
    expect(dead.requests.length).toBe(attempted);

    // The tenant re-enables (pointing at a receiver that answers): the notice clears, events flow, a missed one is redelivered.
    const back = await healthy(() => aSecret);
    const reenabled = await request(`${server.url}/tenant/webhook-config`, {
      method: 'PUT',
      headers: { ...a.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ url: back.url, enabled: true }),
    });
    expect(reenabled.status).toBe(200);
    expect(reenabled.body.webhookConfig).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null });
    // The configuration change is itself an event (webhook_config.updated is not subscribed): one tenant.updated follows.
    await touchTenant(server.url, a, 'Flooding Clinic, back');
    const redelivered = await a.graphql('mutation($id: ID!) { redeliverWebhookEvent(id: $id) { status } }', { id: missed.id });
    expect(redelivered.body.data.redeliverWebhookEvent.status).toBe('PENDING');
    await until('deliveries to the re-enabled endpoint', () => back.received.length === 2);
    expect(back.received.every((r) => r.verified)).toBe(true);
    expect(new Set(back.received.map((r) => r.id)).has(missed.id)).toBe(true);
    expect((await a.graphql(CONFIG)).body.data.webhookConfig).toEqual({ enabled: true, disabledAt: null, disabledReason: null });
  });
});
