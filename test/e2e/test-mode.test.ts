import { SandboxPaymentProcessor, type BillingDeps, type ChargeRequest, type ChargeResult, type OpenAccountRequest, type PaymentProcessor } from '../../subgraphs/billing';
import { admin, createTestTenant, request, type HttpResult, type TestTenant } from '../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../utils/eventually';
import { startWebhookReceiver, type WebhookReceiver } from '../utils/webhook-receiver';
import { configureWebhook, dispatchUntil, oneDispatchingFileAtATime, testDispatcher, touchTenant } from '../gateway/webhooks/support';

oneDispatchingFileAtATime();

/** The sandbox's answers, with every call written down: how these tests see which processor a payment reached. */
class RecordingProcessor implements PaymentProcessor {
  readonly charges: ChargeRequest[] = [];
  readonly openings: OpenAccountRequest[] = [];
  private readonly sandbox = new SandboxPaymentProcessor();

  charge(request: ChargeRequest): Promise<ChargeResult> {
    this.charges.push(request);
    return this.sandbox.charge(request);
  }

  createMerchantAccount(request: OpenAccountRequest): Promise<{ accountId: string }> {
    this.openings.push(request);
    return this.sandbox.createMerchantAccount(request);
  }
}

/** A client with these headers, as createTestTenant's. */
function client(base: string, headers: Record<string, string>) {
  return {
    headers,
    get: (path: string) => request(`${base}${path}`, { headers }),
    graphql: (query: string, variables?: Record<string, unknown>) =>
      request(`${base}/graphql`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) }),
  };
}
type Client = ReturnType<typeof client>;

/** Issues a key through the operator API; `body` as `POST /admin/tenants/{id}/api-keys` takes it. */
async function issueKey(base: string, tenantId: string, body: Record<string, unknown>): Promise<HttpResult> {
  return admin(`/tenants/${tenantId}/api-keys`, { method: 'POST', body: JSON.stringify(body) }, base);
}

/** Runs a GraphQL operation that must succeed; its data. */
async function data(who: Client, query: string, variables?: Record<string, unknown>) {
  const res = await who.graphql(query, variables);
  if (res.status !== 200 || res.body.errors) throw new Error(`GraphQL failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/** The codes of a GraphQL answer's errors. */
const codes = (res: HttpResult) => (res.body.errors ?? []).map((e: { extensions?: { code?: string } }) => e.extensions?.code);

const PATIENT = 'mutation($i: CreatePatientInput!) { createPatient(input: $i) { id } }';
const METHOD = 'mutation($p: ID!, $i: CreatePaymentMethodInput!) { createPatientPaymentMethod(patientId: $p, input: $i) { id } }';
const MEMBER = 'mutation($i: CreateMemberInput!) { createMember(input: $i) { id } }';
const PAY = 'mutation($i: MemberManualPaymentInput!) { makeMemberManualPayment(input: $i) { paymentId status } }';
const GIFT_CARD = 'mutation($i: IssueGiftCardInput!) { issueGiftCard(input: $i) { id } }';
const DASHBOARD = 'mutation($i: CreateDashboardInput!) { createDashboard(input: $i) { id } }';

/** A patient with a card and a member owing 49.00, made with `who`'s key; the member paid through the processor of `who`'s mode. */
async function paidMember(who: Client) {
  const { createPatient } = await data(who, PATIENT, { i: { firstName: 'Tess', lastName: 'Mode' } });
  const card = { paymentMethodId: `pm_${Math.random().toString(36).slice(2)}`, methodType: 'CARD', card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2040 } };
  const { createPatientPaymentMethod } = await data(who, METHOD, { p: createPatient.id, i: card });
  const member = { patientId: createPatient.id, planName: 'Wellness monthly', priceCents: 4900, interval: 'MONTH', status: 'PAST_DUE', balanceDueCents: 4900 };
  const { createMember } = await data(who, MEMBER, { i: member });
  const { makeMemberManualPayment } = await data(who, PAY, { i: { memberId: createMember.id, paymentMethodId: createPatientPaymentMethod.id } });
  return { patientId: createPatient.id as string, memberId: createMember.id as string, payment: makeMemberManualPayment as { paymentId: string; status: string } };
}

/** What each kind of row made with `who`'s key reads as through `other`'s: every lookup by id. */
const LOOKUPS: [string, string][] = [
  ['patient', 'query($id: ID!) { patient(id: $id) { id } }'],
  ['member', 'query($id: ID!) { member(id: $id) { id } }'],
  ['giftCard', 'query($id: ID!) { issuedGiftCard(id: $id) { id } }'],
  ['dashboard', 'query($id: ID!) { dashboard(id: $id) { id } }'],
];

/** Rows of each kind made with `who`'s key: a patient and a paid member, a gift card, a dashboard. */
async function rowsOf(who: Client) {
  const { patientId, memberId, payment } = await paidMember(who);
  const { issueGiftCard } = await data(who, GIFT_CARD, { i: { initialValueCents: 2500, suppressRecipientNotification: true } });
  const { createDashboard } = await data(who, DASHBOARD, { i: { name: 'Test mode board' } });
  return { ids: { patient: patientId, member: memberId, giftCard: issueGiftCard.id as string, dashboard: createDashboard.id as string }, payment };
}

describe('test mode: test keys see only their tenant\'s test data (real HTTP, PostgreSQL, sandbox processor)', () => {
  let server: InProcessApp;
  let dispatch: Awaited<ReturnType<typeof testDispatcher>>;
  const live = new RecordingProcessor();
  const sandbox = new RecordingProcessor();
  const receivers: WebhookReceiver[] = [];
  let tenant: TestTenant;
  let testKey: HttpResult;
  let test: Client;

  beforeAll(async () => {
    server = await startInProcessApp({ ALLOW_HTTP_WEBHOOKS: '1' });
    dispatch = await testDispatcher();
    // This app's billing charges live tenants through `live` and test twins through `sandbox` (its deps).
    const deps = server.platform.subgraphs!.find((s) => s.name === 'billing')!.deps as BillingDeps;
    deps.processor = live;
    deps.testProcessor = sandbox;
    tenant = await createTestTenant('Test Mode Clinic', server.url);
    testKey = await issueKey(server.url, tenant.tenantId, { name: 'ci', livemode: false });
    test = client(server.url, { TENANT: tenant.tenantId, 'API-KEY': testKey.body.apiKey });
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await dispatch.close();
    await server.close();
  });

  it('issues a test key whose prefix says so; the tenant answers as its test twin, and a live key as itself', async () => {
    expect(testKey.status).toBe(201);
    expect(testKey.body).toEqual({ id: expect.any(String), apiKey: expect.stringMatching(/^hpp_test_[A-Za-z0-9]{16}_[A-Za-z0-9_-]{43}$/), livemode: false });
    const restricted = await issueKey(server.url, tenant.tenantId, { scopes: ['tenant:read'], livemode: false });
    expect(restricted.body.apiKey).toMatch(/^hpr_test_[A-Za-z0-9]{16}_/);
    expect(tenant.apiKey).toMatch(/^hpp_[A-Za-z0-9]{16}_/);

    const twin = (await data(test, '{ tenant { id name livemode } }')).tenant;
    expect(twin).toEqual({ id: expect.any(String), name: 'Test Mode Clinic', livemode: false });
    expect(twin.id).not.toBe(tenant.tenantId);
    expect((await data(tenant, '{ tenant { id livemode } }')).tenant).toEqual({ id: tenant.tenantId, livemode: true });
    // REST says the mode too: a test key's `GET /tenant/private` is its twin's record.
    expect((await test.get('/tenant/private')).body).toMatchObject({ id: twin.id, livemode: false });
    expect((await tenant.get('/tenant/private')).body).toMatchObject({ id: tenant.tenantId, livemode: true });
    // The twin's own id names it too; another tenant's id is refused, as for a live key.
    expect((await data(client(server.url, { ...test.headers, TENANT: twin.id }), '{ tenant { livemode } }')).tenant.livemode).toBe(false);
    const other = await createTestTenant('Other Clinic', server.url);
    expect((await client(server.url, { ...test.headers, TENANT: other.tenantId }).get('/tenant/public')).status).toBe(403);
    // The second test key belongs to the same twin.
    const second = client(server.url, { TENANT: tenant.tenantId, 'API-KEY': restricted.body.apiKey });
    expect((await data(second, '{ tenant { id } }')).tenant.id).toBe(twin.id);
  });

  it('lists keys by mode: the operator sees both, each mode its own', async () => {
    const listed = await admin(`/tenants/${tenant.tenantId}/api-keys`, {}, server.url);
    expect(listed.status).toBe(200);
    const ci = listed.body.find((k: { id: string }) => k.id === testKey.body.id);
    expect(ci).toMatchObject({ name: 'ci', livemode: false, kind: 'full', prefix: testKey.body.apiKey.slice(0, 25) });
    expect(listed.body.filter((k: { livemode: boolean }) => k.livemode)).toHaveLength(1);
    const ownKeys = '{ apiKeys { nodes { id prefix livemode } } }';
    const testKeys = (await data(test, ownKeys)).apiKeys.nodes;
    expect(testKeys.map((k: { livemode: boolean }) => k.livemode)).toEqual([false, false]);
    expect(testKeys.every((k: { prefix: string }) => /^hp[pr]_test_/.test(k.prefix))).toBe(true);
    expect((await data(tenant, ownKeys)).apiKeys.nodes).toEqual([{ id: expect.any(String), prefix: tenant.apiKey.slice(0, 20), livemode: true }]);
  });

  it('refuses a key whose prefix lies about its mode, and a live key for a test twin', async () => {
    const disguised = testKey.body.apiKey.replace(/^hpp_test_/, 'hpp_');
    expect((await client(server.url, { TENANT: tenant.tenantId, 'API-KEY': disguised }).get('/tenant/public')).status).toBe(401);
    const twinId = (await data(test, '{ tenant { id } }')).tenant.id;
    const refused = await issueKey(server.url, twinId, {});
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]).toMatchObject({ loc: ['body', 'livemode'] });
    expect((await issueKey(server.url, tenant.tenantId, { livemode: 'no' })).status).toBe(422);
  });

  it('keeps test rows and live rows apart both ways; test payments reach the sandbox, never the live processor', async () => {
    const before = { live: live.charges.length, sandbox: sandbox.charges.length };
    const testRows = await rowsOf(test);
    expect(testRows.payment.status).toBe('SUCCEEDED');
    expect(live.charges.length).toBe(before.live);
    expect(sandbox.charges.map((c) => c.idempotencyKey)).toEqual(expect.arrayContaining([testRows.payment.paymentId]));

    const liveRows = await rowsOf(tenant);
    expect(liveRows.payment.status).toBe('SUCCEEDED');
    expect(live.charges.map((c) => c.idempotencyKey)).toEqual([liveRows.payment.paymentId]);
    expect(sandbox.charges.length).toBe(before.sandbox + 1);

    for (const [kind, query] of LOOKUPS) {
      const id = testRows.ids[kind as keyof typeof testRows.ids];
      const liveId = liveRows.ids[kind as keyof typeof liveRows.ids];
      expect([kind, (await data(test, query, { id }))]).toEqual([kind, { [query.match(/\{ (\w+)\(/)![1]]: { id } }]);
      // Each mode's rows are another tenant's to the other: unknown, as any other tenant's ids.
      expect([kind, codes(await tenant.graphql(query, { id }))]).toEqual([kind, ['NOT_FOUND']]);
      expect([kind, codes(await test.graphql(query, { id: liveId }))]).toEqual([kind, ['NOT_FOUND']]);
    }
  });

  it('opens a test merchant account at the sandbox', async () => {
    const open = 'mutation($i: CreateMerchantAccountInput!) { createMerchantAccount(input: $i) { id } }';
    const fees = { cardProcessingFee: 2.9, perTransactionFeeCents: 30, inPersonCardProcessingFee: 2.6, inPersonPerTransactionFeeCents: 10 };
    const res = await test.graphql(open, { i: { name: 'Test payments', ...fees } });
    expect([res.status, res.body.errors]).toEqual([200, undefined]);
    expect(live.openings).toHaveLength(0);
    expect(sandbox.openings).toHaveLength(1);
  });

  it('marks the test twin\'s webhooks livemode: false; the live endpoint hears none of them', async () => {
    let liveSecret: string | null = null;
    let testSecret: string | null = null;
    const liveReceiver = await startWebhookReceiver(() => liveSecret);
    const testReceiver = await startWebhookReceiver(() => testSecret);
    receivers.push(liveReceiver, testReceiver);
    liveSecret = await configureWebhook(server.url, tenant, liveReceiver.url, ['tenant.updated']);
    testSecret = await configureWebhook(server.url, test as unknown as TestTenant, testReceiver.url, ['tenant.updated']);
    expect((await tenant.get('/tenant/webhook-config')).body.url).toBe(liveReceiver.url);

    await touchTenant(server.url, test as unknown as TestTenant, 'Renamed In Test');
    await dispatchUntil(dispatch.dispatcher, () => testReceiver.received.length >= 1);
    expect(testReceiver.received[0]).toMatchObject({ verified: true, payload: { type: 'tenant.updated', livemode: false, data: { changedFields: ['name'] } } });
    expect((await data(tenant, '{ tenant { name } }')).tenant.name).toBe('Test Mode Clinic');

    await touchTenant(server.url, tenant, 'Renamed Live');
    await dispatchUntil(dispatch.dispatcher, () => liveReceiver.received.length >= 1);
    expect(liveReceiver.received.map((r) => [r.verified, r.payload?.livemode, r.payload?.data.id])).toEqual([[true, true, tenant.tenantId]]);
    expect(testReceiver.received).toHaveLength(1);

    await data(test, 'mutation { sendTestWebhookEvent { id } }');
    await dispatchUntil(dispatch.dispatcher, () => testReceiver.received.length >= 2);
    expect(testReceiver.received[1]).toMatchObject({ verified: true, payload: { type: 'webhook.test', livemode: false } });
    expect(liveReceiver.received).toHaveLength(1);
  });

  it('records a test gift card\'s e-mail as sent without sending it; a live one is sent', async () => {
    // The end-to-end servers' e-mail worker sends the mail of this app's jobs, into their data directory.
    const mailDir = join(process.env.E2E_DATA_DIR!, 'mail');
    const mailsFor = (code: string) => (existsSync(mailDir) ? readdirSync(mailDir).map((f) => readFileSync(join(mailDir, f), 'utf8')) : []).filter((m) => m.includes(code));
    const issueAndSend = async (who: Client) => {
      const { issueGiftCard } = await data(who, 'mutation($i: IssueGiftCardInput!) { issueGiftCard(input: $i) { id code } }', { i: { initialValueCents: 1000, recipientPatientEmail: 'tess@example.com' } });
      await data(who, 'mutation($id: ID!) { activateGiftCard(id: $id, sendNotification: true) { id } }', { id: issueGiftCard.id });
      return issueGiftCard as { id: string; code: string };
    };
    const sentAt = (who: Client, id: string) =>
      eventually(async () => (await data(who, 'query($id: ID!) { issuedGiftCard(id: $id) { notificationSentAt } }', { id })).issuedGiftCard.notificationSentAt as string | null, { timeoutMs: 30_000 });
    const [testCard, liveCard] = [await issueAndSend(test), await issueAndSend(tenant)];
    await Promise.all([sentAt(test, testCard.id), sentAt(tenant, liveCard.id)]);
    await eventually(() => mailsFor(liveCard.code).length > 0, { timeoutMs: 30_000 });
    expect(mailsFor(testCard.code)).toEqual([]);
  });

  it('keeps a test twin\'s audit trail its own', async () => {
    const actions = async (who: Client) => (await data(who, '{ auditEvents(first: 100) { nodes { action } } }')).auditEvents.nodes.map((i: { action: string }) => i.action);
    expect(await actions(test)).toEqual(expect.arrayContaining(['tenant.create', 'api_key.issue', 'tenant.update']));
    const liveActions = await actions(tenant);
    expect(liveActions).toEqual(expect.arrayContaining(['tenant.test_twin_create']));
    expect(liveActions.filter((a: string) => a === 'api_key.issue')).toHaveLength(1);
  });
});

describe('test mode: a test key has a rate budget of its own', () => {
  let server: InProcessApp;
  const LIMIT = 5;

  beforeAll(async () => {
    server = await startInProcessApp({ RATE_LIMIT_PER_WINDOW: String(LIMIT), RATE_LIMIT_WINDOW_SECONDS: '60' });
  });
  afterAll(() => server.close());

  it('spends the twin\'s budget, not the live tenant\'s, and the reverse', async () => {
    const tenant = await createTestTenant('Budget Clinic', server.url);
    const issued = await issueKey(server.url, tenant.tenantId, { livemode: false });
    const test = client(server.url, { TENANT: tenant.tenantId, 'API-KEY': issued.body.apiKey });
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i += 1) statuses.push((await test.get('/tenant/public')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const liveRead = await tenant.get('/tenant/public');
    expect([liveRead.status, liveRead.headers.get('x-ratelimit-remaining')]).toEqual([200, String(LIMIT - 1)]);
  });
});
