/**
 * Abuse suite, fair shares of analytics between tenants (issue 31, finding 4). Tenant A has two
 * years of demo revenue and sends the heavy request: 15 aliased `executeAnalyticsQuery` fields,
 * each with 20 `contains` filters of 1,000 values (about 120 KB), or 16 concurrent heavy REST
 * queries. Tenant B sends one trivial query. Before the fair queue, B's query waited behind all of
 * A's statements (4-8 s instead of ~40 ms). Now each field is one unit of A's share: B is let in at
 * the first slot that frees, A's units past the wait bound are a 429 with Retry-After, and a
 * statement past the statement timeout is a 422 "query too expensive". Each app here runs
 * in-process with small limits; order is read from the running limiter's events, never a clock.
 */
import { FairShare, type FairShareEvent } from '../../platform/fair-share';
import type { AnalyticsDeps } from '../../subgraphs/analytics/analytics-deps';
import { admin, request, type HttpResult, type TestTenant } from '../utils/e2e';
import { eventually } from '../utils/eventually';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';

jest.setTimeout(180_000);

const ALIASES = 15;
const FILTERS = 20;
const VALUES = 1_000;

/** 20 `contains` filters of 1,000 values no item name holds: every line is compared with every value of the first filter. */
function heavyQuery(seed: number): Record<string, unknown> {
  const filters = Array.from({ length: FILTERS }, (_, f) => ({
    member: 'revenue.itemName',
    operator: 'contains',
    values: Array.from({ length: VALUES }, (_, v) => `zq${seed}x${f}y${v}`),
  }));
  return { measures: ['revenue.count'], dimensions: ['revenue.location'], filters };
}

const TRIVIAL = { measures: ['revenue.count'] };

const heavyDocument = `query Heavy($q: JSON!) { ${Array.from({ length: ALIASES }, (_, i) => `a${i}: executeAnalyticsQuery(query: $q) { data }`).join(' ')} }`;

/** Creates a tenant through the end-to-end server's operator API (with the demo data: about two years of revenue lines); every app here shares its database. */
async function tenant(name: string, demoData: boolean): Promise<TestTenant> {
  const created = await admin('/tenants', { method: 'POST', body: JSON.stringify({ name, demoData }), signal: AbortSignal.timeout(120_000) });
  if (created.status !== 201) throw new Error(`creating a tenant failed: ${created.status} ${created.text}`);
  const headers = { TENANT: created.body.tenant.id, 'API-KEY': created.body.apiKey };
  return { tenantId: created.body.tenant.id, apiKey: created.body.apiKey, headers, get: () => Promise.reject(new Error('unused')), graphql: () => Promise.reject(new Error('unused')) };
}

const post = (base: string, who: TestTenant, path: string, body: unknown): Promise<HttpResult> =>
  request(`${base}${path}`, { method: 'POST', headers: { ...who.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });

const graphql = (base: string, who: TestTenant, query: string, variables: Record<string, unknown>) => post(base, who, '/graphql', { query, variables });

const executeQuery = (base: string, who: TestTenant, body: unknown) => post(base, who, '/analytics/widgets/execute-query', body);

/** The analytics subgraph's fair queue in a running app: the very one its resolvers wait in. */
function limiterOf(app: InProcessApp): FairShare {
  const analytics = app.platform.subgraphs!.find((s) => s.name === 'analytics')!;
  return (analytics.deps as AnalyticsDeps).expensive;
}

let heavy: TestTenant;
let victim: TestTenant;

describe('one tenant cannot starve another tenant of analytics (finding 4)', () => {
  beforeAll(async () => {
    heavy = await tenant('Heavy Clinic', true);
    victim = await tenant('Victim Clinic', false);
  });

  describe('fair queue: 2 units per tenant, 2 per process, a long wait bound', () => {
    let app: InProcessApp;
    beforeAll(async () => {
      app = await startInProcessApp({
        ANALYTICS_TENANT_CONCURRENCY: '2',
        ANALYTICS_CONCURRENCY: '2',
        ANALYTICS_QUEUE_WAIT_MS: '60000',
        ANALYTICS_STATEMENT_TIMEOUT_MS: '60000',
        RATE_LIMIT_PER_WINDOW: '100000',
      });
    });
    afterAll(() => app?.close());

    it('the limits reach the running subgraph from its settings', () => {
      expect(limiterOf(app).limits).toEqual({ perKey: 2, total: 2, maxWaitMs: 60_000, maxQueuedPerKey: 64 });
    });

    it("15 aliased heavy fields queue in A's own share; B's trivial query takes the first slot that frees, ahead of A's waiting fields", async () => {
      // The order is under test, not the wait bound (the unit test of FairShare has that): on a loaded
      // machine fifteen heavy statements two at a time outlast the loader's 60 s ceiling, so this app's
      // queue (a test swaps a collaborator on its own copy) waits as long as the test does.
      const analytics = app.platform.subgraphs!.find((s) => s.name === 'analytics')!.deps as AnalyticsDeps;
      analytics.expensive = new FairShare('analytics', { ...analytics.expensive.limits, maxWaitMs: 600_000 });
      const limiter = limiterOf(app);
      const events: FairShareEvent[] = [];
      const stop = limiter.listen((event) => events.push(event));
      try {
        const attack = graphql(app.url, heavy, heavyDocument, { q: heavyQuery(1) });
        // Each aliased field is a unit of its own: two run, thirteen wait in A's queue.
        await eventually(() => limiter.counts(heavy.tenantId).waiting === ALIASES - 2, { what: "A's fields queued" });
        expect(limiter.counts(heavy.tenantId)).toEqual({ running: 2, waiting: ALIASES - 2 });

        const answer = await graphql(app.url, victim, 'query($q: JSON!) { executeAnalyticsQuery(query: $q) { data } }', { q: TRIVIAL });
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual({ data: { executeAnalyticsQuery: { data: [{ 'revenue.count': 0 }] } } });

        // B waited for a slot (the process's two were A's), and got the first one that freed.
        const queuedB = events.findIndex((e) => e.key === victim.tenantId);
        expect(events[queuedB].kind).toBe('queued');
        const nextAdmitted = events.slice(queuedB).find((e) => e.kind === 'admitted');
        expect(nextAdmitted?.key).toBe(victim.tenantId);
        const admittedA = events.slice(0, events.indexOf(nextAdmitted!)).filter((e) => e.kind === 'admitted' && e.key === heavy.tenantId).length;
        expect(admittedA).toBeLessThan(ALIASES);

        const attacked = await attack;
        expect(attacked.status).toBe(200);
        // Every field ran (nothing waited past the long bound), none was refused.
        expect(attacked.body.errors).toBeUndefined();
        expect(Object.keys(attacked.body.data)).toHaveLength(ALIASES);
        expect(events.filter((e) => e.kind === 'admitted' && e.key === heavy.tenantId)).toHaveLength(ALIASES);
      } finally {
        stop();
      }
      expect(limiter.counts()).toEqual({ running: 0, waiting: 0 });
    }, 600_000);
  });

  describe('bounded wait: 2 units per tenant, 3 per process, 300 ms wait, 100 ms statements', () => {
    let app: InProcessApp;
    beforeAll(async () => {
      app = await startInProcessApp({
        ANALYTICS_TENANT_CONCURRENCY: '2',
        ANALYTICS_CONCURRENCY: '3',
        ANALYTICS_QUEUE_WAIT_MS: '300',
        ANALYTICS_STATEMENT_TIMEOUT_MS: '100',
        RATE_LIMIT_PER_WINDOW: '100000',
      });
    });
    afterAll(() => app?.close());

    it("while A's share is busy, A's 16 concurrent REST queries and 15 aliased fields are 429s with Retry-After; B is answered", async () => {
      const limiter = limiterOf(app);
      // A's two slots are held by work that runs until the test lets it go (A's earlier statements).
      let finish!: () => void;
      const busy = new Promise<void>((resolve) => (finish = resolve));
      const held = [limiter.run(heavy.tenantId, () => busy), limiter.run(heavy.tenantId, () => busy)];
      const queued: string[] = [];
      const stop = limiter.listen((event) => event.kind === 'queued' && queued.push(event.key));
      try {
        expect(limiter.counts(heavy.tenantId)).toEqual({ running: 2, waiting: 0 });
        const rest = Array.from({ length: 16 }, (_, i) => executeQuery(app.url, heavy, heavyQuery(100 + i)));
        // Every one of them waited in A's queue (the first may be refused before the last arrives).
        await eventually(() => queued.length === 16, { what: "A's REST queries queued" });

        const answer = await executeQuery(app.url, victim, TRIVIAL);
        expect(answer.status).toBe(200);
        expect(answer.body.data).toEqual([{ 'revenue.count': 0 }]);

        for (const res of await Promise.all(rest)) {
          expect(res.status).toBe(429);
          expect(res.headers.get('retry-after')).toBe('1');
          expect(res.body).toEqual({ detail: 'Too many expensive requests in progress for this tenant; retry after 1 s' });
        }

        const attacked = await graphql(app.url, heavy, heavyDocument, { q: heavyQuery(2) });
        expect(attacked.status).toBe(200);
        // The field is non-null: the first refusal nulls the answer (graphql-js reports that one); the rest were refused too.
        expect(attacked.body.data).toBeNull();
        expect(attacked.body.errors[0]).toEqual({ message: 'Too many expensive requests in progress for this tenant; retry after 1 s', path: ['a0'], extensions: { code: 'RATE_LIMITED', retryAfter: 1 } });
        await eventually(() => limiter.counts(heavy.tenantId).waiting === 0, { what: "A's fields refused" });
        expect(limiter.counts(heavy.tenantId)).toEqual({ running: 2, waiting: 0 });
        expect(queued).toEqual(Array(16 + ALIASES).fill(heavy.tenantId));
      } finally {
        stop();
        finish();
        await Promise.all(held);
      }
      expect(limiter.counts()).toEqual({ running: 0, waiting: 0 });
    });

    it('a statement past ANALYTICS_STATEMENT_TIMEOUT_MS is a 422 "query too expensive", and frees its slot', async () => {
      const reason = 'query too expensive: it ran longer than 100 ms; narrow the date range or add filters';
      const res = await executeQuery(app.url, heavy, heavyQuery(3));
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([{ type: 'value_error', loc: ['body'], msg: `Value error, ${reason}`, input: expect.any(Object), ctx: { error: reason } }]);
      const gql = await graphql(app.url, heavy, 'query($q: JSON!) { executeAnalyticsQuery(query: $q) { data } }', { q: heavyQuery(4) });
      expect(gql.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(gql.body.errors[0].extensions.validation[0].msg).toBe(`Value error, ${reason}`);
      expect(limiterOf(app).counts()).toEqual({ running: 0, waiting: 0 });
    });
  });
});
