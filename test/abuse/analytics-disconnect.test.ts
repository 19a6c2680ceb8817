/**
 * Abuse suite, fair shares (issue 31, finding 4): a unit of analytics work still waiting for its
 * tenant's turn when its client disconnects is dropped, never run, so it takes no slot from anyone
 * later. The request's one AbortSignal is made at the edge; it reaches the fair queue over the REST
 * path (operation runner) and /graphql (Apollo Gateway), through the in-process data source in
 * all-in-one mode, or in distributed mode (E2E_MODE=distributed) through the gateway's fetch to an
 * analytics subgraph service, which is abandoned so that the service's own request signal fires.
 * The app (and the service) run in this process with one slot per tenant, talking HTTP; the
 * tenant's slot is held by work the test releases (as in analytics-fairness.test.ts), and what
 * ran is read from the running queue's events, and in all-in-one mode from /metrics.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { analyticsSubgraph } from '../../subgraphs/analytics';
import type { AnalyticsDeps } from '../../subgraphs/analytics/analytics-deps';
import type { FairShare, FairShareEvent } from '../../platform/fair-share';
import { serveSubgraph } from '../../platform/serve-subgraph';
import { startSubgraph, type RunningSubgraph } from '../../platform/subgraph-runtime';
import { createTestTenant, request, type TestTenant } from '../utils/e2e';
import { eventually } from '../utils/eventually';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';
import { parseMetrics, sampleValue } from '../utils/metrics-text';

jest.setTimeout(120_000);

const MODE = process.env.E2E_MODE === 'distributed' ? 'distributed' : 'all-in-one';
const SECRET = 'analytics-disconnect-secret-0123456789';
const TOKEN = process.env.E2E_OPERATOR_TOKEN!;
const LIMITS = { tenantConcurrency: 1, concurrency: 1, queueWaitMs: 60_000, statementTimeoutMs: 60_000 };
const TRIVIAL = { measures: ['revenue.count'] };
const ALIASES = 3;

/** A request the test can cut: its socket is destroyed as a client that goes away would. */
function openRequest(url: string, path: string, headers: Record<string, string>, body: unknown) {
  const text = JSON.stringify(body);
  const req = http.request(`${url}${path}`, {
    method: 'POST',
    agent: false,
    headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) },
  });
  const answered = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
  });
  answered.catch(() => undefined);
  req.end(text);
  return { answered, disconnect: () => req.destroy() };
}

describe(`a queued unit whose client disconnects is dropped, not run (${MODE} mode)`, () => {
  let gateway: InProcessApp;
  let analytics: RunningSubgraph | null = null;
  let service: Awaited<ReturnType<typeof serveSubgraph>> | null = null;
  let limiter: FairShare;
  let tenant: TestTenant;

  beforeAll(async () => {
    const env = {
      ANALYTICS_TENANT_CONCURRENCY: String(LIMITS.tenantConcurrency),
      ANALYTICS_CONCURRENCY: String(LIMITS.concurrency),
      ANALYTICS_QUEUE_WAIT_MS: String(LIMITS.queueWaitMs),
      ANALYTICS_STATEMENT_TIMEOUT_MS: String(LIMITS.statementTimeoutMs),
      RATE_LIMIT_PER_WINDOW: '100000',
    };
    if (MODE === 'distributed') {
      analytics = await startSubgraph(analyticsSubgraph, process.env.DATABASE_URL!, { migrate: false, background: false, settings: LIMITS });
      service = await serveSubgraph(analytics, { port: 0, host: '127.0.0.1', secret: SECRET });
      // Only the analytics subgraph is called here; the others are never reached.
      const unused = 'http://127.0.0.1:9';
      gateway = await startInProcessApp({
        ...env,
        MODE: 'distributed',
        INTERNAL_SECRET: SECRET,
        SUBGRAPH_ANALYTICS_URL: `http://127.0.0.1:${(service.server.address() as AddressInfo).port}`,
        SUBGRAPH_TENANT_URL: unused,
        SUBGRAPH_BILLING_URL: unused,
        SUBGRAPH_NOTES_URL: unused,
      });
      limiter = (analytics.deps as AnalyticsDeps).expensive;
    } else {
      gateway = await startInProcessApp(env);
      limiter = (gateway.platform.subgraphs!.find((s) => s.name === 'analytics')!.deps as AnalyticsDeps).expensive;
    }
    tenant = await createTestTenant('Disconnecting Clinic', gateway.url);
  });
  afterAll(async () => {
    await gateway?.close();
    await service?.close();
    await analytics?.close();
  });

  /** The tenant's queue events from now on, in order. */
  function record(): { events: FairShareEvent['kind'][]; stop(): void } {
    const events: FairShareEvent['kind'][] = [];
    const stop = limiter.listen((event) => event.key === tenant.tenantId && events.push(event.kind));
    return { events, stop: () => void stop() };
  }

  /** Runs `body` while the tenant's one slot is held by work of the test's; the slot is freed before it returns. */
  async function withSlotHeld(body: () => Promise<void>): Promise<void> {
    let release!: () => void;
    const held = limiter.run(tenant.tenantId, () => new Promise<void>((resolve) => (release = resolve)));
    try {
      await body();
    } finally {
      release();
      await held;
    }
  }

  const scrape = async () => {
    const answer = await request(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.status).toBe(200);
    return parseMetrics(answer.text);
  };
  /** The fair queue's series on the gateway's /metrics: only all-in-one runs the queue in the gateway's process. */
  const dropped = async () => (MODE === 'all-in-one' ? sampleValue(await scrape(), 'hpp_fair_queue_dropped_total', { queue: 'analytics' }) : 0);

  it('REST: the disconnected query never runs; a query whose client waits runs once the slot frees', async () => {
    const droppedBefore = await dropped();
    let waited!: ReturnType<typeof openRequest>;
    const { events, stop } = record();
    await withSlotHeld(async () => {
      const gone = openRequest(gateway.url, '/analytics/widgets/execute-query', tenant.headers, TRIVIAL);
      await eventually(() => limiter.counts(tenant.tenantId).waiting === 1, { what: 'the REST query queued' });
      if (MODE === 'all-in-one') {
        const samples = await scrape();
        expect(sampleValue(samples, 'hpp_fair_queue_units', { queue: 'analytics', state: 'running' })).toBe(1);
        expect(sampleValue(samples, 'hpp_fair_queue_units', { queue: 'analytics', state: 'waiting' })).toBe(1);
      }
      gone.disconnect();
      await eventually(() => events.includes('dropped'), { what: 'the disconnected query dropped' });
      expect(limiter.counts(tenant.tenantId)).toEqual({ running: 1, waiting: 0 });

      // The control: the same query, its client waiting, queues behind the held slot and runs after it.
      waited = openRequest(gateway.url, '/analytics/widgets/execute-query', tenant.headers, TRIVIAL);
      await eventually(() => limiter.counts(tenant.tenantId).waiting === 1, { what: 'the waiting query queued' });
    });
    const answer = await waited.answered;
    stop();
    expect(answer).toEqual({ status: 200, body: expect.objectContaining({ data: [{ 'revenue.count': 0 }] }) });
    // admitted: the held slot; the disconnected query queued and was dropped; the waiting one ran after the slot freed.
    expect(events).toEqual(['admitted', 'queued', 'dropped', 'queued', 'released', 'admitted', 'released']);
    expect(limiter.counts()).toEqual({ running: 0, waiting: 0 });
    if (MODE === 'all-in-one') expect((await dropped()) - droppedBefore).toBe(1);
  });

  it('/graphql: every aliased field of the disconnected request is dropped, none runs', async () => {
    const droppedBefore = await dropped();
    const query = `query($q: JSON!) { ${Array.from({ length: ALIASES }, (_, i) => `a${i}: executeAnalyticsQuery(query: $q) { data }`).join(' ')} }`;
    const { events, stop } = record();
    await withSlotHeld(async () => {
      const gone = openRequest(gateway.url, '/graphql', tenant.headers, { query, variables: { q: TRIVIAL } });
      await eventually(() => limiter.counts(tenant.tenantId).waiting === ALIASES, { what: 'the aliased fields queued' });
      gone.disconnect();
      await eventually(() => events.filter((kind) => kind === 'dropped').length === ALIASES, { what: 'the aliased fields dropped' });
    });
    stop();
    expect(events).toEqual(['admitted', ...Array(ALIASES).fill('queued'), ...Array(ALIASES).fill('dropped'), 'released']);
    expect(limiter.counts()).toEqual({ running: 0, waiting: 0 });
    if (MODE === 'all-in-one') expect((await dropped()) - droppedBefore).toBe(ALIASES);
  });
});
