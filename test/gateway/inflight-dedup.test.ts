import { FULL_ACCESS } from '../../schema/scopes';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { loadConfig } from '../../gateway/config';
import { bootPlatform, type Platform } from '../../gateway/database/platform';
import { startGraphQL, type GraphQLLayer } from '../../gateway/graphql/graphql';
import { parseSingleOperation } from '../../schema/single-operation';
import type { OperationResult, RequestContext } from '../../schema/request-context';
import type { RunningSubgraph } from '../../platform/subgraph-runtime';
import { createLocation, gql } from '../subgraphs/billing/rest-kit';
import { startCountingProxy, type CountingProxy } from '../utils/counting-proxy';
import { createTestTenant, type TestTenant } from '../utils/e2e';

const MODE = process.env.E2E_MODE === 'distributed' ? 'distributed' : 'all-in-one';
const SUBGRAPHS = ['tenant', 'billing', 'analytics', 'notes'] as const;
const silent = pino({ level: 'silent' });

/** What reached the subgraphs: executions in-process, HTTP requests in distributed mode. */
interface Reach {
  count(subgraph: string, tenantId: string): number;
}

/**
 * In-flight deduplication (platform/speed/inflight-dedup.ts) through Apollo Gateway on the real
 * subgraphs of the run mode: executions counted in-process (each subgraph's context is made once
 * per execution), HTTP requests counted by a proxy in front of each subgraph service in
 * distributed mode. Requests are fired together in one tick; the subgraph answers only after I/O
 * (PostgreSQL, HTTP), so every one of them is in flight before the first answer arrives.
 */
describe(`in-flight deduplication of subgraph fetches (${MODE} mode)`, () => {
  let platform: Platform | null = null;
  const proxies: CountingProxy[] = [];
  let reach: Reach;
  let graph: GraphQLLayer;
  let undeduplicated: GraphQLLayer;
  let a: TestTenant;
  let b: TestTenant;
  let aLocation: string;

  beforeAll(async () => {
    if (MODE === 'distributed') {
      const urls: Record<string, string> = {};
      const byName = new Map<string, CountingProxy>();
      for (const name of SUBGRAPHS) {
        const proxy = await startCountingProxy(process.env[`E2E_SUBGRAPH_${name.toUpperCase()}_URL`]!);
        proxies.push(proxy);
        byName.set(name, proxy);
        urls[`SUBGRAPH_${name.toUpperCase()}_URL`] = proxy.url;
      }
      reach = { count: (subgraph, tenantId) => byName.get(subgraph)!.seen.filter((r) => r.tenantId === tenantId).length };
      const env = { MODE: 'distributed', DATABASE_URL: process.env.DATABASE_URL, INTERNAL_SECRET: process.env.E2E_INTERNAL_SECRET, PORT: '0', ...urls };
      graph = await startGraphQL(loadConfig(env), null, silent);
      undeduplicated = await startGraphQL(loadConfig({ ...env, SPEED_PLUMBING: '-inflight-dedup' }), null, silent);
    } else {
      const config = loadConfig({ DATABASE_URL: process.env.DATABASE_URL, PORT: '0', DEMO_TENANT: '0', WEBHOOK_DISPATCHER: 'off' });
      platform = await bootPlatform(config, silent, { migrate: false, background: false });
      const executions: Array<{ subgraph: string; tenantId: string | null }> = [];
      // The real subgraph, but each execution's context is counted (CachedLocalDataSource makes one per fetch).
      const counted = platform.subgraphs!.map((subgraph): RunningSubgraph => {
        const copy = Object.create(subgraph) as RunningSubgraph;
        copy.context = (identity) => {
          executions.push({ subgraph: subgraph.name, tenantId: identity.tenantId });
          return subgraph.context(identity);
        };
        return copy;
      });
      reach = { count: (subgraph, tenantId) => executions.filter((e) => e.subgraph === subgraph && e.tenantId === tenantId).length };
      graph = await startGraphQL(config, counted, silent);
      undeduplicated = await startGraphQL(loadConfig({ DATABASE_URL: process.env.DATABASE_URL, PORT: '0', SPEED_PLUMBING: '-inflight-dedup' }), counted, silent);
    }
    [a, b] = await Promise.all([createTestTenant('Dedup Clinic A'), createTestTenant('Dedup Clinic B')]);
    aLocation = await createLocation(a, { name: 'Harbor', city: 'Portland' });
    const bLocation = await createLocation(b, { name: 'Summit', city: 'Denver' });
    const fees = { cardProcessingFee: 2.9, perTransactionFeeCents: 30, inPersonCardProcessingFee: 2.6, inPersonPerTransactionFeeCents: 10 };
    const create = 'mutation($i: CreateMerchantAccountInput!) { createMerchantAccount(input: $i) { id } }';
    await gql(a, create, { i: { name: 'Clinic A', processorAccountId: `acct_dedup_a_${randomUUID()}`, ...fees, locationIds: [aLocation] } });
    await gql(b, create, { i: { name: 'Clinic B', processorAccountId: `acct_dedup_b_${randomUUID()}`, ...fees, locationIds: [bLocation] } });
  });

  afterAll(async () => {
    await graph?.server.stop();
    await undeduplicated?.server.stop();
    for (const proxy of proxies) await proxy.close();
    await platform?.stop();
  });

  /** A request's context as the edge makes it: a fresh request id each time. */
  const contextOf = (tenant: TestTenant, keyId = 'key-1'): RequestContext => ({ requestId: randomUUID(), tenantId: tenant.tenantId, keyId, scopes: FULL_ACCESS, log: silent });

  /** Apollo Server's pipeline (as `/graphql`) for even callers, the REST bridge's runner for odd ones: both share. */
  async function run(layer: GraphQLLayer, i: number, query: string, variables: Record<string, unknown>, ctx: RequestContext): Promise<OperationResult> {
    if (i % 2 === 1) return layer.runOperation(parseSingleOperation(query, layer.apiSchema), variables, ctx);
    const response = await layer.server.executeOperation({ query, variables }, { contextValue: ctx });
    if (response.body.kind !== 'single') throw new Error('expected a single result');
    const { data, errors } = response.body.singleResult;
    return errors?.length ? { data: data as OperationResult['data'], errors } : { data: data as OperationResult['data'] };
  }

  /** Sends `n` copies of one operation together as `tenant`, each a request of its own. */
  const together = (n: number, tenant: TestTenant, query: string, variables: Record<string, unknown> = {}, layer = graph) =>
    Promise.all(Array.from({ length: n }, (_, i) => run(layer, i, query, variables, contextOf(tenant))));

  /** Counts per subgraph for a tenant while `work` runs. */
  async function reached<T>(tenant: TestTenant, work: () => Promise<T>): Promise<{ result: T; counts: Record<string, number> }> {
    const before = Object.fromEntries(SUBGRAPHS.map((s) => [s, reach.count(s, tenant.tenantId)]));
    const result = await work();
    return { result, counts: Object.fromEntries(SUBGRAPHS.map((s) => [s, reach.count(s, tenant.tenantId) - before[s]]).filter(([, n]) => n !== 0)) };
  }

  const ACCOUNTS = 'query { merchantAccounts { id name locations { id name } } }';

  it('identical concurrent queries of one tenant reach each subgraph once, and all get the answer', async () => {
    const one = await reached(a, () => together(8, a, 'query { tenant { id name } }'));
    expect(one.counts).toEqual({ tenant: 1 });
    expect(new Set(one.result.map((r) => JSON.stringify(r)))).toEqual(new Set([JSON.stringify({ data: { tenant: { id: a.tenantId, name: 'Dedup Clinic A' } } })]));

    const two = await reached(a, () => together(8, a, ACCOUNTS));
    expect(two.counts).toEqual({ billing: 1, tenant: 1 });
    for (const result of two.result) expect(result).toEqual({ data: { merchantAccounts: [{ id: expect.any(String), name: 'Clinic A', locations: [{ id: aLocation, name: 'Harbor' }] }] } });
  });

  it('with SPEED_PLUMBING=-inflight-dedup every request reaches the subgraph', async () => {
    const off = await reached(a, () => together(6, a, ACCOUNTS, {}, undeduplicated));
    expect(off.counts).toEqual({ billing: 6, tenant: 6 });
  });

  it("never shares between tenants: each gets its own answer, and another tenant's id is unknown to it", async () => {
    const [fromA, fromB] = await Promise.all([reached(a, () => together(4, a, 'query { tenant { id name } }')), reached(b, () => together(4, b, 'query { tenant { id name } }'))]);
    expect(fromA.counts).toEqual({ tenant: 1 });
    expect(fromB.counts).toEqual({ tenant: 1 });
    for (const r of fromA.result) expect(r.data).toEqual({ tenant: { id: a.tenantId, name: 'Dedup Clinic A' } });
    for (const r of fromB.result) expect(r.data).toEqual({ tenant: { id: b.tenantId, name: 'Dedup Clinic B' } });

    const query = 'query($id: ID!) { location(id: $id) { id name merchantAccounts { name } } }';
    const [mine, theirs] = await Promise.all([together(3, a, query, { id: aLocation }), together(3, b, query, { id: aLocation })]);
    for (const r of mine) expect(r).toEqual({ data: { location: { id: aLocation, name: 'Harbor', merchantAccounts: [{ name: 'Clinic A' }] } } });
    for (const r of theirs) {
      // location is nullable: the unknown id nulls it alone, not the whole answer.
      expect(r.data).toEqual({ location: null });
      expect(r.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
    }
  });

  it('never shares between API keys of one tenant', async () => {
    const query = 'query { tenant { id } }';
    const both = await reached(a, () => Promise.all([0, 1, 2, 3].map((i) => run(graph, i, query, {}, contextOf(a, i < 2 ? 'key-1' : 'key-2')))));
    expect(both.counts).toEqual({ tenant: 2 });
  });

  it('never deduplicates mutations: identical concurrent ones each run', async () => {
    const created = await reached(a, () => together(4, a, 'mutation { createDashboard(input: { name: "Same board" }) { id name } }'));
    expect(created.counts).toEqual({ analytics: 4 });
    const ids = created.result.map((r) => (r.data?.createDashboard as { id: string }).id);
    expect(new Set(ids).size).toBe(4);
  });

  it('shares errors with every caller, each as a whole answer of its own', async () => {
    const unknown = randomUUID();
    const query = 'query($id: ID!) { dashboard(id: $id) { id name } }';
    const alone = await run(undeduplicated, 0, query, { id: unknown }, contextOf(a));
    expect(alone.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const shared = await reached(a, () => together(5, a, query, { id: unknown }));
    expect(shared.counts).toEqual({ analytics: 1 });
    for (const r of shared.result) expect(r).toEqual(alone);

    // An error below the root, after another subgraph answered.
    const below = 'query($id: ID!) { location(id: $id) { id merchantAccounts { id } } }';
    const expected = await run(undeduplicated, 0, below, { id: unknown }, contextOf(a));
    for (const r of await together(5, a, below, { id: unknown })) expect(r).toEqual(expected);
  });

  (MODE === 'distributed' ? it : it.skip)('a subgraph failure goes to every waiting caller as one 503 error', async () => {
    // A 502 from in front of the subgraph: its only replica is unavailable (gateway/graphql/subgraph-replicas.ts).
    proxies[0].failNext(1);
    const failed = await reached(a, () => together(4, a, 'query { tenant { id name } }'));
    expect(failed.counts).toEqual({ tenant: 1 });
    for (const r of failed.result) expect(r.errors?.map((e) => e.extensions?.code)).toEqual(['SERVICE_UNAVAILABLE']);
    expect((await together(1, a, 'query { tenant { id } }'))[0]).toEqual({ data: { tenant: { id: a.tenantId } } });
  });

  it('keeps answers apart when one shared fetch feeds different operations', async () => {
    // Both plan the same billing fetch (id, name, location ids) and then different tenant fetches.
    const names = 'query { merchantAccounts { id name locations { name } } }';
    const cities = 'query { merchantAccounts { id name locations { city } } }';
    const mixed = await reached(a, () => Promise.all([together(3, a, names), together(3, a, cities)]));
    expect(mixed.counts).toEqual({ billing: 1, tenant: 2 });
    const [withNames, withCities] = mixed.result;
    for (const r of withNames) expect(r).toEqual({ data: { merchantAccounts: [{ id: expect.any(String), name: 'Clinic A', locations: [{ name: 'Harbor' }] }] } });
    for (const r of withCities) expect(r).toEqual({ data: { merchantAccounts: [{ id: expect.any(String), name: 'Clinic A', locations: [{ city: 'Portland' }] }] } });
  });
});
