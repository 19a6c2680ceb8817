import { ProcessorUnreachableError, type BillingDeps, type ChargeRequest, type ChargeResult, type OpenAccountRequest, type PaymentProcessor } from '../../subgraphs/billing';
import { SandboxPaymentProcessor } from '../../subgraphs/billing';
import { createTestTenant, request, type TestTenant } from '../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';

/** A processor that honours idempotency keys and can be switched off, as an outage. */
class FlakyProcessor implements PaymentProcessor {
  readonly charged = new Map<string, ChargeResult>();
  readonly calls: string[] = [];
  down = false;
  /** An integration bug rather than an outage. */
  broken = false;
  private readonly sandbox = new SandboxPaymentProcessor();

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    this.calls.push(request.idempotencyKey);
    if (this.down) throw new ProcessorUnreachableError('connect ECONNREFUSED 10.0.0.9:443');
    if (this.broken) throw new TypeError("Cannot read properties of undefined (reading 'status')");
    const outcome = this.charged.get(request.idempotencyKey) ?? (await this.sandbox.charge(request));
    this.charged.set(request.idempotencyKey, outcome);
    return outcome;
  }

  createMerchantAccount(request: OpenAccountRequest) {
    return this.sandbox.createMerchantAccount(request);
  }
}

const PATH = '/inventory/members/manual-payment';

/**
 * The payment processor down, through real HTTP and PostgreSQL: the member payment route answers
 * 503 with Retry-After (not a 500), keeps the attempt PENDING, and the same request retried once
 * the processor is back charges once, under the attempt's id.
 */
describe('POST /inventory/members/manual-payment while the payment processor is down', () => {
  let server: InProcessApp;
  let tenant: TestTenant;
  const processor = new FlakyProcessor();

  beforeAll(async () => {
    server = await startInProcessApp();
    // This app's running billing subgraph charges through the flaky processor (its deps, not a module variable).
    (server.platform.subgraphs!.find((s) => s.name === 'billing')!.deps as BillingDeps).processor = processor;
    tenant = await createTestTenant('Processor outage', server.url);
  });
  afterAll(async () => {
    await server.close();
  });

  async function gql(query: string, variables: Record<string, unknown>) {
    const res = await tenant.graphql(query, variables);
    if (res.status !== 200 || res.body.errors) throw new Error(`GraphQL failed: ${res.status} ${res.text}`);
    return res.body.data;
  }

  async function memberWithCard() {
    const { createPatient } = await gql('mutation($i: CreatePatientInput!) { createPatient(input: $i) { id } }', { i: { firstName: 'Ines', lastName: 'Moreau' } });
    const card = { paymentMethodId: `pm_${Math.random().toString(36).slice(2)}`, methodType: 'CARD', card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2040 } };
    const { createPatientPaymentMethod } = await gql('mutation($p: ID!, $i: CreatePaymentMethodInput!) { createPatientPaymentMethod(patientId: $p, input: $i) { id } }', { p: createPatient.id, i: card });
    const member = { patientId: createPatient.id, planName: 'Wellness monthly', priceCents: 4900, interval: 'MONTH', status: 'PAST_DUE', balanceDueCents: 4900 };
    const { createMember } = await gql('mutation($i: CreateMemberInput!) { createMember(input: $i) { id } }', { i: member });
    return { memberId: createMember.id as string, paymentMethodId: createPatientPaymentMethod.id as string };
  }

  const pay = (body: unknown, key: string) =>
    request(`${server.url}${PATH}`, { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json', 'Idempotency-Key': key }, body: JSON.stringify(body) });

  it('answers 503 with Retry-After, keeps the attempt PENDING, and the retry charges it once', async () => {
    const body = await memberWithCard();
    const key = `outage-${Date.now()}`;
    processor.down = true;
    const refused = await pay(body, key);
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ detail: 'Payment processor unavailable; retry the request' });
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(refused.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    const [attemptId] = processor.calls.slice(-1);
    const read = 'query($id: ID!) { member(id: $id) { status balanceDueCents payments { paymentId status } } }';
    expect((await gql(read, { id: body.memberId })).member).toEqual({ status: 'PAST_DUE', balanceDueCents: 4900, payments: [{ paymentId: attemptId, status: 'PENDING' }] });

    processor.down = false;
    // A 5xx is not kept under the Idempotency-Key, so the same request runs again and settles the attempt.
    const retried = await pay(body, key);
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(retried.body).toMatchObject({ paymentId: attemptId, status: 'SUCCEEDED', amountCents: 4900 });
    expect(processor.charged.get(attemptId)?.status).toBe('SUCCEEDED');
    expect(processor.calls.filter((id) => id === attemptId)).toHaveLength(2);
    expect((await gql(read, { id: body.memberId })).member).toEqual({ status: 'ACTIVE', balanceDueCents: 0, payments: [{ paymentId: attemptId, status: 'SUCCEEDED' }] });

    const replayed = await pay(body, key);
    expect([replayed.status, replayed.headers.get('idempotent-replayed'), replayed.body.paymentId]).toEqual([200, 'true', attemptId]);
  });

  it('answers an integration bug with a 500, not a 503 that would invite a retry into the same bug', async () => {
    const body = await memberWithCard();
    processor.broken = true;
    try {
      const failed = await pay(body, `bug-${Date.now()}`);
      expect([failed.status, failed.body, failed.headers.get('retry-after')]).toEqual([500, { detail: 'Internal server error' }, null]);
    } finally {
      processor.broken = false;
    }
  });

  it('documents the 503 naming the processor on that route; every route can find the database or a subgraph down', async () => {
    const doc = (await request(`${server.url}/openapi.json`)).body;
    expect(doc.paths[PATH].post.responses['503']).toMatchObject({ description: expect.stringMatching(/^The payment processor, /), headers: { 'Retry-After': expect.any(Object) } });
    expect(doc.paths['/tenant/public'].get.responses['503']).toMatchObject({ description: expect.not.stringContaining('payment processor'), headers: { 'Retry-After': expect.any(Object) } });
  });
});
