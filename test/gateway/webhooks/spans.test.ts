import { trace, type Attributes, type Span, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { sendGiftCardEmail } from '../../../subgraphs/billing/notifications/gift-card-email-job';
import { createTestTenant } from '../../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../../utils/in-process';
import { startWebhookReceiver, type WebhookReceiver } from '../../utils/webhook-receiver';
import { configureWebhook, dispatchUntil, testDispatcher, touchTenant, oneDispatchingFileAtATime } from './support';

/** Spans as a registered SDK would receive them: name, tracer and attributes (the API is a no-op without one). */
const recorded: { tracer: string; name: string; attributes: Attributes }[] = [];

function recordingSpan(entry: (typeof recorded)[number]): Span {
  const span: Span = {
    spanContext: () => ({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 1 }),
    setAttribute: (key, value) => ((entry.attributes[key] = value), span),
    setAttributes: (attributes) => (Object.assign(entry.attributes, attributes), span),
    addEvent: () => span,
    addLink: () => span,
    addLinks: () => span,
    setStatus: () => span,
    updateName: () => span,
    end: () => undefined,
    isRecording: () => true,
    recordException: () => undefined,
  };
  return span;
}

const provider: TracerProvider = {
  getTracer(tracerName): Tracer {
    const startSpan = (name: string, options?: { attributes?: Attributes }) => {
      const entry = { tracer: tracerName, name, attributes: { ...options?.attributes } };
      recorded.push(entry);
      return recordingSpan(entry);
    };
    return {
      startSpan,
      startActiveSpan: ((name: string, ...rest: unknown[]) => {
        const fn = rest[rest.length - 1] as (span: Span) => unknown;
        const options = typeof rest[0] === 'object' && rest.length > 1 ? (rest[0] as { attributes?: Attributes }) : undefined;
        return fn(startSpan(name, options));
      }) as Tracer['startActiveSpan'],
    };
  },
};

oneDispatchingFileAtATime();

describe('spans of one webhook delivery and one e-mail send: tenant, type, attempt; never bodies, URLs or addresses', () => {
  let server: InProcessApp;
  let dispatch: Awaited<ReturnType<typeof testDispatcher>>;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    trace.setGlobalTracerProvider(provider);
    // The app's tenant subgraph takes endpoints on 127.0.0.1 (its settings, read once at start).
    server = await startInProcessApp({ ALLOW_HTTP_WEBHOOKS: '1' });
    dispatch = await testDispatcher();
  });
  afterAll(async () => {
    await receiver?.close();
    await dispatch.close();
    await server.close();
    trace.disable();
  });

  it('webhook.delivery carries the tenant, event type, attempt and status', async () => {
    const tenant = await createTestTenant('Traced Clinic', server.url);
    let secret: string | null = null;
    receiver = await startWebhookReceiver(() => secret);
    secret = await configureWebhook(server.url, tenant, receiver.url, ['tenant.updated']);
    await touchTenant(server.url, tenant, 'Traced Clinic 2');
    await dispatchUntil(dispatch.dispatcher, () => receiver.received.length >= 1);
    const spans = recorded.filter((s) => s.name === 'webhook.delivery' && s.attributes['tenant.id'] === tenant.tenantId);
    expect(spans).toEqual([
      { tracer: 'healthcare-practice-platform', name: 'webhook.delivery', attributes: { 'tenant.id': tenant.tenantId, 'webhook.event_type': 'tenant.updated', 'webhook.attempt': 1, 'http.response.status_code': 200 } },
    ]);
    expect(JSON.stringify(spans)).not.toContain(receiver.url);
    expect(JSON.stringify(spans)).not.toContain(secret!.slice(6));
  });

  it('email.send carries the tenant, kind and attempt, never the recipient', async () => {
    const tenant = await createTestTenant('Traced Mail', server.url);
    // Due tomorrow: the end-to-end server's sender leaves it alone; the test sends it by hand.
    const issued = await tenant.graphql('mutation($i: IssueGiftCardInput!) { issueGiftCard(input: $i) { id } }', {
      i: { initialValueCents: 1000, recipientPatientEmail: 'traced@example.com', scheduledSendAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    const cardId = issued.body.data.issueGiftCard.id;
    await tenant.graphql('mutation($id: ID!) { activateGiftCard(id: $id, sendNotification: true) { id } }', { id: cardId });
    const { rows } = await dispatch.pool.query<{ id: string; job_id: string }>(`select id, job_id from billing.notifications where gift_card_id = $1`, [cardId]);
    const billing = server.platform.subgraphs!.find((s) => s.name === 'billing')!;
    const sent: string[] = [];
    const outcome = await sendGiftCardEmail(
      billing.orm.em as never,
      { send: async (message) => (sent.push(message.to), { messageId: '<t@example.com>' }), close: () => undefined },
      rows[0].job_id,
      { notificationId: rows[0].id, tenantId: tenant.tenantId },
      { warn: () => undefined },
    );
    expect(outcome).toBe('done');
    expect(sent).toEqual(['traced@example.com']);
    const spans = recorded.filter((s) => s.name === 'email.send' && s.attributes['tenant.id'] === tenant.tenantId);
    expect(spans).toEqual([{ tracer: 'healthcare-practice-platform', name: 'email.send', attributes: { 'tenant.id': tenant.tenantId, 'email.kind': 'gift_card_recipient', 'email.attempt': 1 } }]);
    expect(JSON.stringify(recorded)).not.toContain('traced@example.com');
  });
});
