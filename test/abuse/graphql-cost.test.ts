/**
 * Issue 31, findings 3 and 9, and "cost is charged from the document that actually runs and grows
 * with what it asks for": persisted queries (APQ) are charged like the document they stand for and
 * kept per tenant; a mismatched hash is a coded 400; heavy filters and large pages cost more than
 * one unit, on /graphql and REST alike; REST lists share GraphQL's response cap.
 */
import { createHash } from 'node:crypto';
import { createTestTenant, request, type HttpResult, type TestTenant } from '../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';

const BUDGET = 100;
const MAX_RESPONSE_BYTES = 20_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const remaining = (res: HttpResult) => Number(res.headers.get('x-ratelimit-remaining'));

/** Finding 3's document: 15 aliased createDashboard mutations (the alias limit's most). */
const FIFTEEN_DASHBOARDS = `mutation { ${Array.from({ length: 15 }, (_, i) => `d${i}: createDashboard(input: {name: "D${i}"}) { id }`).join(' ')} }`;

/** An analytics query with `filters` filters of `values` values each (finding 4's are 20 of 1,000). */
const analyticsQuery = (filters: number, values: number) => ({
  measures: ['revenue.netAmount'],
  filters: Array.from({ length: filters }, () => ({ member: 'revenue.paymentMedium', operator: 'contains', values: Array.from({ length: values }, (_, i) => `m${i}`) })),
});

describe('GraphQL and REST cost on a server with a small budget (issue 31)', () => {
  let server: InProcessApp;

  beforeAll(async () => {
    server = await startInProcessApp({ RATE_LIMIT_PER_WINDOW: String(BUDGET), RATE_LIMIT_WINDOW_SECONDS: '60', GRAPHQL_MAX_RESPONSE_BYTES: String(MAX_RESPONSE_BYTES) });
  });
  afterAll(() => server.close());

  const post = (tenant: TestTenant, body: unknown, path = '/graphql') =>
    request(`${server.url}${path}`, { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const dashboards = async (tenant: TestTenant) => (await tenant.graphql('{ dashboards { totalCount } }')).body.data.dashboards.totalCount as number;

  it('charges a persisted query replayed by hash like the full document (finding 3)', async () => {
    const tenant = await createTestTenant('APQ charge', server.url);
    const persistedQuery = { version: 1, sha256Hash: sha256(FIFTEEN_DASHBOARDS) };
    const before = remaining(await tenant.get('/tenant/public'));

    const registered = await post(tenant, { query: FIFTEEN_DASHBOARDS, extensions: { persistedQuery } });
    expect(registered.status).toBe(200);
    expect(Object.keys(registered.body.data)).toHaveLength(15);
    expect(remaining(registered)).toBe(before - 15);

    const replayed = await post(tenant, { extensions: { persistedQuery } });
    expect(replayed.status).toBe(200);
    expect(Object.keys(replayed.body.data)).toHaveLength(15);
    expect(remaining(replayed)).toBe(remaining(registered) - 15);
    expect(await dashboards(tenant)).toBe(30);

    // A GET by hash (Apollo Client's useGETForHashedQueries) resolves within the tenant too.
    const read = '{ dashboards(first: 100) { totalCount } }';
    expect((await post(tenant, { query: read, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(read) } } })).status).toBe(200);
    const search = new URLSearchParams({ extensions: JSON.stringify({ persistedQuery: { version: 1, sha256Hash: sha256(read) } }) });
    const byGet = await request(`${server.url}/graphql?${search}`, { headers: { ...tenant.headers, 'apollo-require-preflight': 'true' } });
    expect(byGet.body).toEqual({ data: { dashboards: { totalCount: 30 } } });
  });

  it("keeps persisted queries per tenant: another tenant's hash is not found and runs nothing (finding 3)", async () => {
    const [a, b] = [await createTestTenant('APQ owner', server.url), await createTestTenant('APQ neighbour', server.url)];
    const document = `${FIFTEEN_DASHBOARDS} `;
    const persistedQuery = { version: 1, sha256Hash: sha256(document) };
    expect((await post(a, { query: document, extensions: { persistedQuery } })).status).toBe(200);

    const replay = await post(b, { extensions: { persistedQuery } });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('cache-control')).toBe('private, no-cache, must-revalidate');
    expect(replay.body).toEqual({ errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] });
    expect(await dashboards(b)).toBe(0);
    // Apollo Client then sends the document with its hash: it runs, and is kept for b as well.
    expect((await post(b, { query: document, extensions: { persistedQuery } })).status).toBe(200);
    expect(Object.keys((await post(b, { extensions: { persistedQuery } })).body.data)).toHaveLength(15);
  });

  it('answers a hash that does not match its document with a 400 PERSISTED_QUERY_HASH_MISMATCH, nothing run (finding 3)', async () => {
    const tenant = await createTestTenant('APQ mismatch', server.url);
    const res = await post(tenant, { query: FIFTEEN_DASHBOARDS, extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ tenant { id } }') } } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [{ message: 'provided sha does not match query', extensions: { code: 'PERSISTED_QUERY_HASH_MISMATCH' } }] });
    expect(await dashboards(tenant)).toBe(0);
    const version = await post(tenant, { query: '{ tenant { id } }', extensions: { persistedQuery: { version: 2, sha256Hash: sha256('{ tenant { id } }') } } });
    expect(version.status).toBe(400);
    expect(version.body.errors[0].extensions.code).toBe('BAD_REQUEST');
  });

  it('charges heavy filters far more than light ones: 15 aliased queries of 20 filters of 1,000 values are a 429, on /graphql and REST', async () => {
    const tenant = await createTestTenant('Heavy filters', server.url);
    const document = 'query($q: JSON!) { executeAnalyticsQuery(query: $q) { data } }';
    const light = await post(tenant, { query: document, variables: { q: analyticsQuery(1, 1) } });
    const start = remaining(light);
    // One filter of 1,000 values: ten units more than a query of one value.
    const thousand = await post(tenant, { query: document, variables: { q: analyticsQuery(1, 1_000) } });
    expect(remaining(thousand)).toBe(start - 11);

    const fifteen = `query($q: JSON!) { ${Array.from({ length: 15 }, (_, i) => `q${i}: executeAnalyticsQuery(query: $q) { data }`).join(' ')} }`;
    const heavy = await post(tenant, { query: fifteen, variables: { q: analyticsQuery(20, 1_000) } });
    expect(heavy.status).toBe(429);
    expect(heavy.body).toEqual({ errors: [{ message: 'Rate limit exceeded', extensions: { code: 'RATE_LIMITED', retryAfter: expect.any(Number) } }] });
    expect(Number(heavy.headers.get('retry-after'))).toBeGreaterThan(0);

    // REST runs a fixed document with variables, charged by the same formula.
    const other = await createTestTenant('Heavy filters over REST', server.url);
    const cheap = await post(other, analyticsQuery(1, 1), '/analytics/widgets/execute-query');
    expect(cheap.status).toBe(200);
    expect(remaining(cheap)).toBe(BUDGET - 1);
    const rest = await post(other, analyticsQuery(20, 1_000), '/analytics/widgets/execute-query');
    expect(rest.status).toBe(429);
    expect(rest.body).toEqual({ detail: 'Rate limit exceeded' });
    expect(rest.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('refuses a REST list over the response cap GraphQL refuses it at, with a 422 naming per_page (finding 9)', async () => {
    const tenant = await createTestTenant('Response cap', server.url);
    // Four dashboards of about 6 KB each: 24 KB together, over the 20,000-byte cap; two fit.
    const layout = { cells: Array.from({ length: 60 }, (_, i) => ({ id: `cell-${i}`, text: 'x'.repeat(80) })) };
    for (let i = 0; i < 4; i += 1) expect((await post(tenant, { name: `Big ${i}`, layout }, '/analytics/dashboards')).status).toBe(201);

    const all = await tenant.get('/analytics/dashboards?per_page=100');
    expect(all.status).toBe(422);
    expect(all.body.detail).toEqual([
      expect.objectContaining({ type: 'value_error', loc: ['query', 'per_page'], input: 100, msg: expect.stringContaining(`larger than ${MAX_RESPONSE_BYTES} bytes`) }),
    ]);
    expect(all.text.length).toBeLessThan(1_000);
    const page = await tenant.get('/analytics/dashboards?per_page=2');
    expect(page.status).toBe(200);
    expect(page.body.items).toHaveLength(2);

    const graph = await tenant.graphql('{ dashboards(first: 100) { nodes { id layout } } }');
    expect(graph.body).toEqual({ data: null, errors: [expect.objectContaining({ extensions: { code: 'RESPONSE_TOO_LARGE', maxBytes: MAX_RESPONSE_BYTES } })] });
  });
});
