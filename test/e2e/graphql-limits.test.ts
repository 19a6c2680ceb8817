import { Agent, request as httpRequest } from 'node:http';
import { createLocation, gql } from '../subgraphs/billing/rest-kit';
import { baseUrl, createTestTenant, request, type TestTenant } from '../utils/e2e';

const fees = { cardProcessingFee: 2.9, perTransactionFeeCents: 30, inPersonCardProcessingFee: 2.6, inPersonPerTransactionFeeCents: 10 };

/** Finding 1's query: merchant accounts and their locations, nested `levels` fields deep. */
function depthBomb(levels: number): string {
  let selection = 'id';
  for (let level = levels; level >= 1; level -= 1) selection = `${level % 2 === 1 ? 'merchantAccounts' : 'locations'} { ${selection} }`;
  return `{ ${selection} }`;
}

/** GET on one kept-alive socket: whether the socket was reused tells that the server process is the same one. */
function getOn(agent: Agent, path: string): Promise<{ status: number; reusedSocket: boolean }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl()}${path}`, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, reusedSocket: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A tenant whose two merchant accounts both serve its two locations, so the bomb's answer doubles per level. */
async function tenantWithCycle(): Promise<TestTenant> {
  const tenant = await createTestTenant('Depth bomb');
  const locations = [await createLocation(tenant, { name: 'North' }), await createLocation(tenant, { name: 'South' })];
  for (const name of ['One', 'Two']) {
    await gql(tenant, 'mutation($i: CreateMerchantAccountInput!) { createMerchantAccount(input: $i) { id } }', { i: { name, ...fees, locationIds: locations } });
  }
  return tenant;
}

const remaining = (res: { headers: Headers }) => Number(res.headers.get('x-ratelimit-remaining'));

describe(`GraphQL operation limits (${process.env.E2E_MODE} mode)`, () => {
  it('refuses an operationName that selects no operation with a 400, not the executor\'s 500', async () => {
    const tenant = await createTestTenant('Operation names');
    const send = (body: unknown) =>
      request(`${baseUrl()}/graphql`, { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const two = await send({ query: 'query A { publicTenant { id } } query B { publicTenant { id } }' });
    const unknown = await send({ query: 'query A { publicTenant { id } }', operationName: 'Z' });
    for (const res of [two, unknown]) {
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toBe('OPERATION_RESOLUTION_FAILURE');
    }
    const named = await send({ query: 'query A { publicTenant { id } } query B { publicTenant { name } }', operationName: 'A' });
    expect(named.body).toEqual({ data: { publicTenant: { id: tenant.tenantId } } });
  });

  it('answers the 20-level depth bomb with a coded error, and the same process keeps serving', async () => {
    const tenant = await tenantWithCycle();
    // A legitimate nesting of the same fields still runs.
    const shallow = await gql(tenant, depthBomb(3));
    expect(shallow.merchantAccounts[0].locations[0].merchantAccounts).toHaveLength(2);

    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await getOn(agent, '/healthz')).status).toBe(200);
      const bombs = await Promise.all(Array.from({ length: 6 }, () => tenant.graphql(depthBomb(20))));
      for (const bomb of bombs) {
        expect(bomb.status).toBe(400);
        expect(bomb.body.data).toBeUndefined();
        expect(bomb.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
        const messages = bomb.body.errors.map((e: { message: string }) => e.message).join(' ');
        expect(messages).toMatch(/depth limit of 10 exceeded/);
        expect(messages).toMatch(/List nesting limit of 3 exceeded, found 20/);
      }
      const after = await getOn(agent, '/healthz');
      expect(after).toEqual({ status: 200, reusedSocket: true });
    } finally {
      agent.destroy();
    }
  });

  it('charges one unit per root field, aliases counted and fragments expanded', async () => {
    const tenant = await createTestTenant('Root field cost');
    const one = await tenant.graphql('{ tenant { id } }');
    expect(one.status).toBe(200);
    const three = await tenant.graphql('query { a: tenant { id } ...more } fragment more on Query { b: tenant { id } publicTenant { id } }');
    expect(three.status).toBe(200);
    const ten = await tenant.graphql(`mutation { ${Array.from({ length: 10 }, (_, i) => `d${i}: createDashboard(input: {name: "D${i}"}) { id }`).join(' ')} }`);
    expect(ten.status).toBe(200);
    expect(Object.keys(ten.body.data)).toHaveLength(10);
    // Several workers spend leased slices of one budget, each knowing its own part of what is left
    // (platform/speed/rate-lease.ts): the count goes down exactly only as one process sees it.
    if (Number(process.env.WEB_CONCURRENCY ?? 1) > 1) return;
    expect(remaining(three)).toBe(remaining(one) - 3);
    expect(remaining(ten)).toBe(remaining(three) - 10);
  });

  it('refuses 500 aliased createDashboard mutations and 1,000 aliased patient pages before running any', async () => {
    const tenant = await createTestTenant('Alias abuse');
    const mutations = await tenant.graphql(`mutation { ${Array.from({ length: 500 }, (_, i) => `d${i}: createDashboard(input: {name: "D${i}"}) { id }`).join(' ')} }`);
    expect(mutations.status).toBe(400);
    expect(mutations.body.errors[0].extensions.code).toMatch(/^GRAPHQL_(PARSE|VALIDATION)_FAILED$/);
    expect((await gql(tenant, '{ dashboards { totalCount } }')).dashboards.totalCount).toBe(0);

    const pages = await tenant.graphql(`{ ${Array.from({ length: 1000 }, (_, i) => `p${i}: patients(first: 100) { nodes { id firstName lastName email } }`).join(' ')} }`);
    expect(pages.status).toBe(400);
    expect(pages.body.errors[0].extensions.code).toMatch(/^GRAPHQL_(PARSE|VALIDATION)_FAILED$/);
    expect(pages.text.length).toBeLessThan(2_000);

    // Within the token limit, the alias limit (15) answers.
    const sixteen = await tenant.graphql(`{ ${Array.from({ length: 16 }, (_, i) => `t${i}: tenant { id }`).join(' ')} }`);
    expect(sixteen.status).toBe(400);
    expect(sixteen.body.errors[0]).toMatchObject({ message: expect.stringContaining('Aliases limit of 15 exceeded, found 16'), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
  });

  it('answers introspection and field suggestions outside production', async () => {
    const tenant = await createTestTenant('Introspection');
    expect((await gql(tenant, '{ __schema { queryType { name } } }')).__schema.queryType.name).toBe('Query');
    const typo = await tenant.graphql('{ tenan { id } }');
    expect(typo.body.errors[0].message).toContain('Did you mean "tenant"');
  });

  it('refuses NUL and unpaired surrogates in variables and literals as BAD_USER_INPUT naming the field', async () => {
    const tenant = await createTestTenant('Text rule');
    const CREATE = 'mutation($i: CreateDashboardInput!) { createDashboard(input: $i) { id } }';
    const nul = await tenant.graphql(CREATE, { i: { name: 'a\u0000b' } });
    expect(nul.status).toBe(400);
    expect(nul.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      validation: [{ type: 'value_error', loc: ['variables', 'i', 'name'], msg: 'Value error, text must not contain NUL characters' }],
    });
    const surrogate = await tenant.graphql(CREATE, { i: { name: 'a\ud800b' } });
    expect(surrogate.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', validation: [{ loc: ['variables', 'i', 'name'], msg: 'Value error, text must not contain unpaired surrogate characters' }] });

    const literalSurrogate = await tenant.graphql('mutation { createDashboard(input: {name: "a\\uD800b"}) { id } }');
    expect(literalSurrogate.status).toBe(400);
    // graphql-js refuses it while parsing (the spec makes it a syntax error): answered as the same rule, at the field whose string holds it.
    expect(literalSurrogate.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', validation: [{ loc: ['name'], msg: expect.stringContaining('unpaired surrogate') }] });
    const literalBraced = await tenant.graphql('mutation { createDashboard(input: {layout: {}, name: "\\u{DC00}"}) { id } }');
    expect(literalBraced.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', validation: [{ loc: ['name'] }] });
    const literalNul = await tenant.graphql('mutation { createDashboard(input: {name: "a\\u0000b"}) { id } }');
    expect(literalNul.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', validation: [{ loc: ['input', 'name'], msg: expect.stringContaining('NUL') }] });
    // Paired surrogates (an emoji) are text like any other.
    expect((await gql(tenant, CREATE, { i: { name: 'Clinic \u{1F600}' } })).createDashboard.id).toBeTruthy();
    expect((await gql(tenant, '{ dashboards { totalCount } }')).dashboards.totalCount).toBe(1);
  });

  describe('/graphql/stream', () => {
    const post = (tenant: TestTenant, body: unknown) =>
      request(`${baseUrl()}/graphql/stream`, { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify(body) });

    it('answers a refusal whose message is not Latin-1 as JSON with a fixed reason phrase', async () => {
      const tenant = await createTestTenant('Stream refusal');
      const res = await post(tenant, { query: 'subscription { migrateTemplateQuestion(templateId: ["€ ✓"], questionId: "q") { type } }' });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body.errors[0].message).toContain('€ ✓');
      expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    });

    it('applies the operation limits and the text rule', async () => {
      const tenant = await createTestTenant('Stream limits');
      const aliases = Array.from({ length: 16 }, (_, i) => `t${i}: type`).join(' ');
      const res = await post(tenant, { query: `subscription { migrateTemplateQuestion(templateId: "t", questionId: "q") { ${aliases} } }` });
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ message: expect.stringContaining('Aliases limit of 15 exceeded'), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
      const text = await post(tenant, { query: 'subscription($t: ID!) { migrateTemplateQuestion(templateId: $t, questionId: "q") { type } }', variables: { t: 'a\u0000' } });
      expect(text.status).toBe(400);
      expect(text.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', validation: [{ loc: ['variables', 't'] }] });
      const literal = await post(tenant, { query: 'subscription { migrateTemplateQuestion(templateId: "\\uD800", questionId: "q") { type } }' });
      expect(literal.status).toBe(400);
      expect(literal.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', validation: [{ loc: ['templateId'] }] });
    });
  });
});
