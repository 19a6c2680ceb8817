/**
 * Abuse suite, the lead webhook (issue 31, finding 1: nothing is read before it is allowed): the
 * key in `POST /opportunity/leads/{webhook_key}` is asked of the analytics subgraph, through the
 * graph, after the address's budget and before the body is read. An app is started in this process
 * in the run mode of the suite: its subgraphs in-process, or the suite's subgraph services over
 * HTTP with a counting proxy in front of analytics. Lookups are counted as analytics fetches made
 * with no tenant (only the lead route makes those here).
 */
import { startCountingProxy, type CountingProxy } from '../utils/counting-proxy';
import { createTestTenant, request, type HttpResult, type TestTenant } from '../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';
import { openSocket } from '../utils/raw-socket';

jest.setTimeout(60_000);

const MODE = process.env.E2E_MODE === 'distributed' ? 'distributed' : 'all-in-one';
const SUBGRAPHS = ['tenant', 'billing', 'analytics', 'notes'] as const;
const JSON_TYPE = { 'content-type': 'application/json' };

/** An app of the suite's run mode, and the analytics fetches with no tenant it has made so far. */
interface LeadApp {
  app: InProcessApp;
  lookups(): number;
  close(): Promise<void>;
}

async function startLeadApp(env: Record<string, string>): Promise<LeadApp> {
  if (MODE === 'distributed') {
    const proxy: CountingProxy = await startCountingProxy(process.env.E2E_SUBGRAPH_ANALYTICS_URL!);
    const urls = Object.fromEntries(SUBGRAPHS.map((name) => [`SUBGRAPH_${name.toUpperCase()}_URL`, name === 'analytics' ? proxy.url : process.env[`E2E_SUBGRAPH_${name.toUpperCase()}_URL`]!]));
    const app = await startInProcessApp({ ...env, ...urls, MODE: 'distributed', INTERNAL_SECRET: process.env.E2E_INTERNAL_SECRET! });
    return {
      app,
      lookups: () => proxy.seen.filter((r) => r.tenantId === null).length,
      async close() {
        await app.close();
        await proxy.close();
      },
    };
  }
  const app = await startInProcessApp(env);
  // The real subgraph, its contexts counted: the in-process data source makes one per fetch.
  const analytics = app.platform.subgraphs!.find((s) => s.name === 'analytics')!;
  const context = analytics.context.bind(analytics);
  let count = 0;
  analytics.context = (identity) => {
    if (identity.tenantId === null) count += 1;
    return context(identity);
  };
  return { app, lookups: () => count, close: () => app.close() };
}

/** A campaign of `tenant`, its webhook key. */
async function campaignKey(tenant: TestTenant, isActive = true): Promise<string> {
  const created = await tenant.graphql('mutation($input: CreateCampaignInput!) { createCampaign(input: $input) { webhook { webhookKey } } }', { input: { name: 'Lead keys', isActive } });
  expect(created.body.errors).toBeUndefined();
  return created.body.data.createCampaign.webhook.webhookKey;
}

/**
 * Sends a lead's headers, declaring `declared` bytes, and only the first 100 (malformed JSON: parsed,
 * it would be a 422), then waits for the server to answer and close the connection, and never sends
 * the rest. A server that read the body would wait for it (until HTTP_REQUEST_TIMEOUT_SECONDS, 60 s
 * here: past the test's own timeout).
 */
async function cutShort(url: string, path: string, declared: number): Promise<{ head: string; body: unknown }> {
  const client = await openSocket(url);
  client.socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n{"name": "${'a'.repeat(88)}`);
  await client.closed;
  const [head, body] = client.received().split('\r\n\r\n');
  return { head, body: JSON.parse(body) };
}

const expectJson = (res: HttpResult, status: number, detail: unknown) => {
  expect([res.status, res.headers.get('content-type'), res.body]).toEqual([status, 'application/json; charset=utf-8', { detail }]);
};

describe(`the lead webhook's key is asked before its body is read (${MODE} mode)`, () => {
  let lead: LeadApp;
  let tenant: TestTenant;
  beforeAll(async () => {
    lead = await startLeadApp({ RATE_LIMIT_AUTH_FAILURES_PER_WINDOW: '1000', PUBLIC_BODY_LIMIT_BYTES: '16384' });
    tenant = await createTestTenant('Lead Key Clinic', lead.app.url);
  });
  afterAll(() => lead?.close());

  it("an unknown key is its 404 while the body is still arriving, with Connection: close; the rest is never read, within the cap or past it", async () => {
    for (const declared of [8 * 1024, 1024 * 1024]) {
      const { head, body } = await cutShort(lead.app.url, `/opportunity/leads/${'A'.repeat(43)}`, declared);
      expect(head).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
      expect(head).toMatch(/\r\nConnection: close\r\n/i);
      expect(head).toMatch(/\r\nRateLimit-Policy: "anonymous";/i);
      expect(body).toEqual({ detail: 'Campaign not found' });
    }
  });

  it("an inactive campaign's key is its 409 the same way, and a path the route cannot take its 422", async () => {
    const inactive = await campaignKey(tenant, false);
    const closed = await cutShort(lead.app.url, `/opportunity/leads/${inactive}`, 8 * 1024);
    expect(closed.head).toMatch(/^HTTP\/1\.1 409 Conflict\r\n/);
    expect(closed.body).toEqual({ detail: 'Campaign is not accepting leads' });
    const nul = await cutShort(lead.app.url, '/opportunity/leads/a%00b', 8 * 1024);
    expect(nul.head).toMatch(/^HTTP\/1\.1 422 Unprocessable Entity\r\n/);
    expect(nul.body).toMatchObject({ detail: [{ type: 'value_error', loc: ['path', 'webhook_key'] }] });
  });

  it('a valid key still takes a lead, and its body is read as before: 422 for a bad one, 413 past the cap', async () => {
    const key = await campaignKey(tenant);
    const post = (body: string) => request(`${lead.app.url}/opportunity/leads/${key}`, { method: 'POST', headers: JSON_TYPE, body });
    const taken = await post(JSON.stringify({ name: 'Jane Doe', email: 'jane@example.com' }));
    expect(taken.status).toBe(201);
    expect(taken.body).toEqual({ opportunityId: expect.stringMatching(/^[0-9a-f-]{36}$/), redirectUrl: null });
    expect((await post('{"name": ')).body.detail[0].type).toBe('json_invalid');
    expectJson(await post(JSON.stringify({ name: 'x'.repeat(20_000) })), 413, 'Request body too large');
    const counted = await tenant.graphql(`{ campaigns { nodes { opportunityCount } } }`);
    expect(counted.body.data.campaigns.nodes.map((c: { opportunityCount: number }) => c.opportunityCount).sort()).toEqual([0, 1]);
  });

  it("a key's answer is remembered: repeated and concurrent posts to one unknown key cost one lookup, to a known key one lookup besides each lead's own write", async () => {
    const unknown = 'B'.repeat(43);
    const before = lead.lookups();
    const post = (key: string) => request(`${lead.app.url}/opportunity/leads/${key}`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ name: 'Flood' }) });
    for (const res of await Promise.all(Array.from({ length: 5 }, () => post(unknown)))) expectJson(res, 404, 'Campaign not found');
    for (let i = 0; i < 5; i += 1) expectJson(await post(unknown), 404, 'Campaign not found');
    expect(lead.lookups() - before).toBe(1);

    const key = await campaignKey(tenant);
    const known = lead.lookups();
    for (let i = 0; i < 4; i += 1) expect((await post(key)).status).toBe(201);
    expect(lead.lookups() - known).toBe(4 + 1);
  });
});

describe(`the address's budget comes before the key lookup (${MODE} mode)`, () => {
  let lead: LeadApp;
  beforeAll(async () => {
    lead = await startLeadApp({ RATE_LIMIT_AUTH_FAILURES_PER_WINDOW: '2' });
  });
  afterAll(() => lead?.close());

  it('probing keys past the budget is a 429 that asks the subgraph nothing', async () => {
    const probe = (key: string) => request(`${lead.app.url}/opportunity/leads/${key}`, { method: 'POST', headers: JSON_TYPE, body: '{}' });
    expectJson(await probe('C'.repeat(43)), 404, 'Campaign not found');
    expectJson(await probe('D'.repeat(43)), 404, 'Campaign not found');
    const asked = lead.lookups();
    expect(asked).toBe(2);
    for (const key of ['E', 'F', 'G']) {
      const res = await probe(key.repeat(43));
      expectJson(res, 429, 'Rate limit exceeded');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(lead.lookups()).toBe(asked);
  });
});
