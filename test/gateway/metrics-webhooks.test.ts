import pino from 'pino';
import { register } from 'prom-client';
import { watchBacklogs } from '../../gateway/metrics/database-gauges';
import { createTestTenant } from '../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';
import { parseMetrics, sampleValue } from '../utils/metrics-text';
import { startWebhookReceiver, type WebhookReceiver } from '../utils/webhook-receiver';
import { configureWebhook, dispatchUntil, testDispatcher, touchTenant, oneDispatchingFileAtATime } from './webhooks/support';

oneDispatchingFileAtATime();

describe('webhook metrics: backlog read at scrape time, attempt outcomes and delivery lag counted by the dispatcher', () => {
  let server: InProcessApp;
  let dispatch: Awaited<ReturnType<typeof testDispatcher>>;
  let receiver: WebhookReceiver | null = null;
  let backlogs: { close(): Promise<void> };

  beforeAll(async () => {
    // The app's tenant subgraph takes endpoints on 127.0.0.1 (its settings, read once at start).
    server = await startInProcessApp({ ALLOW_HTTP_WEBHOOKS: '1' });
    dispatch = await testDispatcher();
    backlogs = watchBacklogs(process.env.DATABASE_URL!, pino({ level: 'silent' }));
  });
  afterAll(async () => {
    await receiver?.close();
    await backlogs.close();
    await dispatch.close();
    await server.close();
  });

  const scrape = async () => parseMetrics(await register.metrics());

  it('shows a retried delivery pending, then counts one retry, one delivery and its lag', async () => {
    const tenant = await createTestTenant('Metrics Hooked Clinic', server.url);
    let secret: string | null = null;
    receiver = await startWebhookReceiver(() => secret);
    secret = await configureWebhook(server.url, tenant, receiver.url, ['tenant.updated']);
    const before = await scrape();

    receiver.script.push(503);
    await touchTenant(server.url, tenant, 'Metrics Renamed Clinic');
    await dispatchUntil(dispatch.dispatcher, () => receiver!.received.length >= 1);
    // Refused once, due again in a second: in the queue now.
    const waiting = await scrape();
    expect(sampleValue(waiting, 'hpp_webhook_queue_depth')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(waiting, 'hpp_webhook_oldest_pending_seconds')).toBeGreaterThan(0);
    expect(Number.isFinite(sampleValue(waiting, 'hpp_webhook_overdue_seconds'))).toBe(true);
    expect(Number.isFinite(sampleValue(waiting, 'hpp_emails_due'))).toBe(true);

    await dispatchUntil(dispatch.dispatcher, () => receiver!.received.length >= 2);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) => sampleValue(after, name, labels) - sampleValue(before, name, labels);
    // The dispatcher serves every tenant of the database (others' leftovers too): at least ours.
    expect(delta('hpp_webhook_attempts_total', { outcome: 'retry' })).toBeGreaterThanOrEqual(1);
    expect(delta('hpp_webhook_attempts_total', { outcome: 'delivered' })).toBeGreaterThanOrEqual(1);
    expect(delta('hpp_webhook_delivery_lag_seconds_count')).toBe(delta('hpp_webhook_attempts_total', { outcome: 'delivered' }));
    // Ours waited out a retry: the lag is the time since it entered the log, not one attempt's duration.
    expect(delta('hpp_webhook_delivery_lag_seconds_sum')).toBeGreaterThan(0);
  });
});
