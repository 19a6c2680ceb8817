import { randomUUID } from 'node:crypto';
import { recordEvent } from '../../../subgraphs/common/jobs/record-event';
import { WEBHOOK_EVENT_QUEUE } from '../../../platform/jobs/webhook-event';
import { TenantScope } from '../../../platform/tenant-scope';
import { createTestTenant, request } from '../../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../../utils/in-process';
import { startWebhookReceiver, type WebhookReceiver } from '../../utils/webhook-receiver';
import { configureWebhook, dispatchUntil, testDispatcher, touchTenant, oneDispatchingFileAtATime } from './support';

oneDispatchingFileAtATime();

describe('webhook delivery (outbox -> dispatcher -> Standard Webhooks receiver on 127.0.0.1)', () => {
  let server: InProcessApp;
  let dispatch: Awaited<ReturnType<typeof testDispatcher>>;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    // The app's tenant subgraph takes endpoints on 127.0.0.1 (its settings, read once at start).
    server = await startInProcessApp({ ALLOW_HTTP_WEBHOOKS: '1' });
    dispatch = await testDispatcher();
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await dispatch.close();
    await server.close();
  });

  /** A tenant whose webhook points at a fresh receiver, subscribed to `events`. */
  async function subscribed(events = ['tenant.updated']) {
    const tenant = await createTestTenant('Hooked Clinic', server.url);
    let secret: string | null = null;
    const receiver = await startWebhookReceiver(() => secret);
    receivers.push(receiver);
    secret = await configureWebhook(server.url, tenant, receiver.url, events);
    return { tenant, receiver, secret };
  }

  /** The tenant's events of a type on the job queue (`queued`: not yet relayed). */
  const events = async (tenantId: string, type: string, queued?: boolean) => dispatch.jobs.boss.findJobs(WEBHOOK_EVENT_QUEUE, { data: { tenantId, type }, queued });

  const deliveries = async (tenant: Awaited<ReturnType<typeof createTestTenant>>) =>
    (await tenant.graphql('{ webhookDeliveries { totalCount nodes { id eventType status attemptCount lastStatus payload attempts { attemptNumber statusCode error } } } }')).body.data.webhookDeliveries;

  it('delivers an event once on 200, signed and verifiable, with the payload {type, timestamp, data}', async () => {
    const { tenant, receiver } = await subscribed();
    await touchTenant(server.url, tenant, 'Renamed Clinic');
    await dispatchUntil(dispatch.dispatcher, () => receiver.received.length >= 1);
    await dispatch.dispatcher.runOnce();
    expect(receiver.received).toHaveLength(1);
    const [hit] = receiver.received;
    expect(hit.verified).toBe(true);
    expect(hit.payload).toMatchObject({ type: 'tenant.updated', data: { id: tenant.tenantId, changedFields: ['name'] } });
    expect(new Date(hit.payload!.timestamp).toISOString()).toBe(hit.payload!.timestamp);
    const log = await deliveries(tenant);
    expect(log.totalCount).toBe(1);
    expect(log.nodes[0]).toMatchObject({ id: hit.id, eventType: 'tenant.updated', status: 'DELIVERED', attemptCount: 1, lastStatus: 200 });
    expect(log.nodes[0].attempts).toEqual([{ attemptNumber: 1, statusCode: 200, error: null }]);
  });

  it('retries 500, 500, then succeeds on 200 with the same webhook-id', async () => {
    const { tenant, receiver } = await subscribed();
    receiver.script.push(500, 500);
    await touchTenant(server.url, tenant, 'Retry Clinic');
    await dispatchUntil(dispatch.dispatcher, () => receiver.received.length >= 3);
    expect(receiver.received.map((r) => r.id)).toEqual([receiver.received[0].id, receiver.received[0].id, receiver.received[0].id]);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    await dispatchUntil(dispatch.dispatcher, async () => (await deliveries(tenant)).nodes[0].status === 'DELIVERED');
    expect((await deliveries(tenant)).nodes[0].attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500, 200]);
  });

  it('delivers once the receiver comes back up', async () => {
    const { tenant, receiver } = await subscribed();
    const port = Number(new URL(receiver.url).port);
    await receiver.close();
    await touchTenant(server.url, tenant, 'Down Clinic');
    await dispatchUntil(dispatch.dispatcher, async () => (await deliveries(tenant)).nodes[0]?.attemptCount >= 1);
    const first = (await deliveries(tenant)).nodes[0];
    expect(first.status).toBe('PENDING');
    expect(first.attempts[0]).toMatchObject({ statusCode: null, error: expect.stringContaining('network error') });
    const secret = (await request(`${server.url}/tenant/webhook-config`, { headers: tenant.headers })).body;
    expect(secret.secretHint).toMatch(/^whsec_/);
    const back = await startWebhookReceiver(() => null, port);
    receivers.push(back);
    await dispatchUntil(dispatch.dispatcher, () => back.received.length >= 1);
    await dispatchUntil(dispatch.dispatcher, async () => (await deliveries(tenant)).nodes[0].status === 'DELIVERED');
  });

  it('refuses at send time a host that resolves to an internal address', async () => {
    const { tenant, receiver } = await subscribed();
    await touchTenant(server.url, tenant, 'Internal Clinic');
    // Saved while allowed; delivered by workers without ALLOW_HTTP_WEBHOOKS: the address connected to is what is checked.
    const strict = await testDispatcher({ allowInternal: false });
    try {
      await dispatchUntil(strict.dispatcher, async () => (await deliveries(tenant)).nodes[0]?.attemptCount >= 1);
    } finally {
      await strict.close();
    }
    expect(receiver.received).toHaveLength(0);
    expect((await deliveries(tenant)).nodes[0].attempts[0]).toMatchObject({ statusCode: null, error: 'refused: the host resolves to a non-public address' });
  });

  it('410 Gone disables the endpoint and fails the delivery', async () => {
    const { tenant, receiver } = await subscribed();
    receiver.script.push(410);
    await touchTenant(server.url, tenant, 'Gone Clinic');
    await dispatchUntil(dispatch.dispatcher, async () => (await deliveries(tenant)).nodes[0]?.status === 'FAILED');
    const config = await request(`${server.url}/tenant/webhook-config`, { headers: tenant.headers });
    expect(config.body).toMatchObject({ enabled: false, disabledAt: expect.any(String), disabledReason: 'the receiver answered 410 Gone' });
    expect((await deliveries(tenant)).nodes[0].attempts[0].error).toBe('HTTP 410; endpoint disabled: the receiver answered 410 Gone');
    expect(receiver.received).toHaveLength(1);
  });

  it('a receiver holding the wrong secret cannot verify the signature', async () => {
    const tenant = await createTestTenant('Wrong Secret', server.url);
    const receiver = await startWebhookReceiver(() => `whsec_${Buffer.from(randomUUID()).toString('base64')}`);
    receivers.push(receiver);
    await configureWebhook(server.url, tenant, receiver.url, ['tenant.updated']);
    await touchTenant(server.url, tenant, 'Wrong Secret 2');
    await dispatchUntil(dispatch.dispatcher, () => receiver.received.length >= 1);
    expect(receiver.received[0].verified).toBe(false);
  });

  it('does not send event types the tenant did not subscribe to', async () => {
    const { tenant, receiver } = await subscribed(['gift_card.activated']);
    await touchTenant(server.url, tenant, 'Quiet Clinic');
    expect(await events(tenant.tenantId, 'tenant.updated')).toHaveLength(1);
    await dispatchUntil(dispatch.dispatcher, async () => (await events(tenant.tenantId, 'tenant.updated', true)).length === 0);
    await dispatch.dispatcher.runOnce();
    expect(receiver.received).toHaveLength(0);
    expect((await deliveries(tenant)).totalCount).toBe(0);
  });

  it('never sends an event whose transaction rolled back', async () => {
    const { tenant, receiver } = await subscribed();
    const tenantOrm = server.platform.tenantOrm;
    await expect(
      tenantOrm.em.fork().transactional(async (em) => {
        await recordEvent(em as never, TenantScope.ofStoredRow(tenant.tenantId), 'tenant.updated', { id: tenant.tenantId, changedFields: ['name'] });
        await em.flush();
        throw new Error('the change failed after the event was written');
      }),
    ).rejects.toThrow('the change failed');
    expect(await events(tenant.tenantId, 'tenant.updated')).toHaveLength(0);
    await dispatch.dispatcher.runOnce();
    expect(receiver.received).toHaveLength(0);
  });

  it('redelivers on request and sends a test event, through GraphQL', async () => {
    const { tenant, receiver } = await subscribed();
    await touchTenant(server.url, tenant, 'Again Clinic');
    await dispatchUntil(dispatch.dispatcher, async () => (await deliveries(tenant)).nodes[0]?.status === 'DELIVERED');
    const id = (await deliveries(tenant)).nodes[0].id;
    const again = await tenant.graphql('mutation($id: ID!) { redeliverWebhookEvent(id: $id) { id status attemptCount } }', { id });
    expect(again.body.data.redeliverWebhookEvent).toEqual({ id, status: 'PENDING', attemptCount: 0 });
    const test = await tenant.graphql('mutation { sendTestWebhookEvent { id eventType status } }');
    expect(test.body.data.sendTestWebhookEvent).toMatchObject({ eventType: 'webhook.test', status: 'PENDING' });
    await dispatchUntil(dispatch.dispatcher, () => receiver.received.length >= 3);
    expect(receiver.received.filter((r) => r.id === id)).toHaveLength(2);
    expect(receiver.received.find((r) => r.payload?.type === 'webhook.test')?.verified).toBe(true);
    const other = await createTestTenant('Other', server.url);
    const foreign = await other.graphql('mutation($id: ID!) { redeliverWebhookEvent(id: $id) { id } }', { id });
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await deliveries(other)).totalCount).toBe(0);
  });
});
