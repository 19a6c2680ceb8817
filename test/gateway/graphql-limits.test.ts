import { ConfigError, loadConfig } from '../../gateway/config';
import { createLocation, gql } from '../subgraphs/billing/rest-kit';
import { baseUrl, createTestTenant, request, type TestTenant } from '../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';

describe('GraphQL limits configuration', () => {
  it('has defaults that keep development tools and hides the schema under NODE_ENV=production', () => {
    expect(loadConfig({}).graphql).toEqual({
      maxDepth: 10,
      maxAliases: 15,
      maxTokens: 1000,
      maxDirectives: 50,
      maxCost: 5000,
      maxListDepth: 3,
      maxResponseBytes: 10 * 1024 * 1024,
      maxStreamsPerTenant: 100,
      introspection: true,
      fieldSuggestions: true,
    });
    expect(loadConfig({ NODE_ENV: 'production' }).graphql).toMatchObject({ introspection: false, fieldSuggestions: false });
    expect(loadConfig({ NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'on', GRAPHQL_FIELD_SUGGESTIONS: '1' }).graphql).toMatchObject({ introspection: true, fieldSuggestions: true });
    expect(loadConfig({ GRAPHQL_INTROSPECTION: 'false', GRAPHQL_MAX_DEPTH: '7' }).graphql).toMatchObject({ introspection: false, maxDepth: 7 });
    expect(loadConfig({ GRAPHQL_MAX_STREAMS_PER_TENANT: '3' }).graphql.maxStreamsPerTenant).toBe(3);
    expect(() => loadConfig({ GRAPHQL_MAX_STREAMS_PER_TENANT: '0' })).toThrow(/GRAPHQL_MAX_STREAMS_PER_TENANT/);
  });

  it('lists every bad value at once', () => {
    try {
      loadConfig({ GRAPHQL_MAX_DEPTH: '1', GRAPHQL_MAX_COST: 'lots', GRAPHQL_INTROSPECTION: 'maybe', GRAPHQL_MAX_RESPONSE_BYTES: '10' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        expect.stringContaining('GRAPHQL_MAX_DEPTH'),
        expect.stringContaining('GRAPHQL_MAX_COST'),
        expect.stringContaining('GRAPHQL_MAX_RESPONSE_BYTES'),
        expect.stringContaining('GRAPHQL_INTROSPECTION'),
      ]);
    }
  });
});

/** Merchant accounts and their locations, nested `levels` fields deep (finding 1). */
function depthBomb(levels: number): string {
  let selection = 'id';
  for (let level = levels; level >= 1; level -= 1) selection = `${level % 2 === 1 ? 'merchantAccounts' : 'locations'} { ${selection} }`;
  return `{ ${selection} }`;
}

const aliased = (count: number, field: (i: number) => string) => Array.from({ length: count }, (_, i) => field(i)).join(' ');

describe('GraphQL limits on a production server with its own budget', () => {
  let server: InProcessApp;
  const BUDGET = 200;

  beforeAll(async () => {
    // Depth, cost, token and alias limits opened wide (list nesting to 5), so that the lines behind them show.
    server = await startInProcessApp({
      NODE_ENV: 'production',
      RATE_LIMIT_PER_WINDOW: String(BUDGET),
      GRAPHQL_MAX_TOKENS: '100000',
      GRAPHQL_MAX_ALIASES: '1000',
      GRAPHQL_MAX_DEPTH: '100',
      GRAPHQL_MAX_COST: '10000000',
      GRAPHQL_MAX_LIST_DEPTH: '5',
      GRAPHQL_MAX_RESPONSE_BYTES: '2048',
    });
  });
  afterAll(() => server.close());

  const tenant = (name: string) => createTestTenant(name, server.url);

  it('refuses introspection and hides field suggestions', async () => {
    const t = await tenant('Production');
    const introspection = await t.graphql('{ __schema { queryType { name } } }');
    expect(introspection.status).toBe(400);
    expect(introspection.body.errors[0]).toMatchObject({ message: expect.stringContaining('introspection is not allowed'), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    const typo = await t.graphql('{ tenan { id } }');
    expect(typo.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(typo.body.errors[0].message).toContain('Cannot query field "tenan"');
    expect(typo.body.errors[0].message).not.toContain('Did you mean');
  });

  it('charges 500 aliased createDashboard mutations 500 units: over the budget they are a 429 and nothing is created', async () => {
    const t = await tenant('Alias budget');
    const res = await t.graphql(`mutation { ${aliased(500, (i) => `d${i}: createDashboard(input: {name: "D${i}"}) { id }`)} }`);
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ errors: [{ message: 'Rate limit exceeded', extensions: { code: 'RATE_LIMITED', retryAfter: expect.any(Number) } }] });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    // The shared end-to-end server reads the same database and has its own budget.
    const created = await request(`${baseUrl()}/graphql`, {
      method: 'POST',
      headers: { ...t.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ dashboards { totalCount } }' }),
    });
    expect(created.body.data.dashboards.totalCount).toBe(0);
  });

  it('refuses lists nested past GRAPHQL_MAX_LIST_DEPTH whatever the depth and cost limits allow, fragments followed', async () => {
    const t = await tenant('List nesting');
    const locations = [await createLocation(t, { name: 'North' }), await createLocation(t, { name: 'South' })];
    for (const name of ['One', 'Two']) {
      const fees = { cardProcessingFee: 2.9, perTransactionFeeCents: 30, inPersonCardProcessingFee: 2.6, inPersonPerTransactionFeeCents: 10 };
      await gql(t, 'mutation($i: CreateMerchantAccountInput!) { createMerchantAccount(input: $i) { id } }', { i: { name, ...fees, locationIds: locations } });
    }
    const five = await gql(t, depthBomb(5));
    expect(five.merchantAccounts[1].locations[1].merchantAccounts[1].locations[1].merchantAccounts).toHaveLength(2);
    const bomb = await t.graphql(depthBomb(20));
    expect(bomb.status).toBe(400);
    expect(bomb.body.errors[0]).toMatchObject({ message: 'List nesting limit of 5 exceeded, found 20.', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    const viaFragments = await t.graphql(
      '{ merchantAccounts { ...L } } fragment L on MerchantAccount { locations { ...M } } fragment M on Location { merchantAccounts { locations { ... on Location { merchantAccounts { locations { id } } } } } }',
    );
    expect(viaFragments.body.errors[0].message).toBe('List nesting limit of 5 exceeded, found 6.');
  });

  it('replaces an answer over GRAPHQL_MAX_RESPONSE_BYTES by a coded error', async () => {
    const t: TestTenant = await tenant('Response cap');
    expect((await gql(t, '{ tenant { id name } }')).tenant.name).toBe('Response cap');
    const big = await t.graphql(`{ ${aliased(30, (i) => `t${i}: tenant { id name timezone locale currency createdAt updatedAt }`)} }`);
    expect(big.status).toBe(200);
    expect(big.body).toEqual({
      data: null,
      errors: [{ message: 'The response would be larger than 2048 bytes; ask for fewer objects or fields', extensions: { code: 'RESPONSE_TOO_LARGE', maxBytes: 2048 } }],
    });
  });
});
