import { baseUrl, createTestTenant, request, type TestTenant } from '../utils/e2e';
import { breakdown, createLocation, recordSales } from '../subgraphs/analytics/revenue-kit';

// Money on the graph is SafeInt `...Cents` (docs/api.md, Schema style); REST keeps the contract's names and types.

const LE_INT32 = { type: 'less_than_equal', msg: 'Input should be less than or equal to 2147483647', ctx: { le: 2147483647 } };

describe(`money in SafeInt cents on the graph, REST unchanged (${process.env.E2E_MODE} mode)`, () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTestTenant('Cents Clinic');
    const north = await createLocation(tenant, 'North');
    await recordSales(tenant, [
      { locationId: north, grossCents: 10000, discountCents: 1000, at: '2026-03-02T15:00:00Z' },
      { locationId: north, grossCents: 5000, at: '2026-03-03T15:00:00Z' },
    ]);
  });

  it('the graph answers the figures REST answers, under the *Cents names', async () => {
    const rest = (await breakdown(tenant, 'revenue-breakdown-summary', { timezone: 'UTC' })).body;
    const graph = await tenant.graphql('{ revenueBreakdownSummary(timezone: "UTC") { count grossCents discountCents netCents averageNetCents } }');
    expect(graph.body.data.revenueBreakdownSummary).toEqual({
      count: rest.count, grossCents: rest.grossAmount, discountCents: rest.discountAmount, netCents: rest.netAmount, averageNetCents: rest.averageNetAmount,
    });
    expect(rest).toMatchObject({ count: 2, grossAmount: 15000, discountAmount: 1000, netAmount: 14000, averageNetAmount: 7000 });
  });

  it('the graph bounds are whole cents; REST keeps its number bounds and selects the same lines', async () => {
    const count = async (bounds: string) => (await tenant.graphql(`{ revenueBreakdownSummary(timezone: "UTC", ${bounds}) { count } }`)).body;
    expect((await count('minNetCents: 9000')).data.revenueBreakdownSummary.count).toBe(1);
    expect((await count('minNetCents: 9000000000000')).data.revenueBreakdownSummary.count).toBe(0);
    const fraction = await tenant.graphql('query($min: SafeInt) { revenueBreakdownSummary(timezone: "UTC", minNetCents: $min) { count } }', { min: 9000.5 });
    expect(fraction.body.errors[0]).toMatchObject({ message: expect.stringContaining('SafeInt cannot represent non-integer value: 9000.5'), extensions: { code: 'BAD_USER_INPUT' } });

    const restCount = async (params: Record<string, string | number>) => (await breakdown(tenant, 'revenue-breakdown-summary', { timezone: 'UTC', ...params })).body.count;
    expect(await restCount({ min_net_amount: 8999.5 })).toBe(1);
    expect(await restCount({ max_net_amount: 9000.5 })).toBe(2);
    // Bounds in order with no whole cent between them select nothing, as they always did: no 422.
    expect(await restCount({ min_net_amount: 9000.2, max_net_amount: 9000.8 })).toBe(0);
    expect(await restCount({ min_net_amount: 1e300 })).toBe(0);
    const groups = await breakdown(tenant, 'revenue-breakdown-groups', { timezone: 'UTC', group_by: 'location', min_net_amount: 4999.5, max_net_amount: 5000 });
    expect(groups.body.map((g: { totalCount: number }) => g.totalCount)).toEqual([1]);
    const lines = await breakdown(tenant, 'revenue-breakdown', { timezone: 'UTC', min_net_amount: '5000.01' });
    expect(lines.body.items.map((i: { netAmount: number }) => i.netAmount)).toEqual([9000]);
    // group-summaries keeps the contract's 32-bit integer bounds.
    const wide = await breakdown(tenant, 'revenue-breakdown-group-summaries', { timezone: 'UTC', group_by: 'location', min_net_amount: '2147483648' });
    expect(wide.body).toEqual({ detail: [{ ...LE_INT32, loc: ['query', 'min_net_amount'], input: '2147483648' }] });
  });

  it("a budget beyond its 32-bit column is refused as before, on REST and on the graph", async () => {
    const created = await tenant.graphql('mutation($i: CreateCampaignInput!) { createCampaign(input: $i) { id budgetCents } }', { i: { name: 'Big', budgetCents: 2147483647 } });
    const campaign = created.body.data.createCampaign;
    expect(campaign.budgetCents).toBe(2147483647);
    const put = await request(`${baseUrl()}/opportunity/campaign/${campaign.id}`, {
      method: 'PUT',
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ budgetCents: 2147483648 }),
    });
    expect(put.status).toBe(422);
    expect(put.body).toEqual({ detail: [{ ...LE_INT32, loc: ['body', 'budgetCents'], input: 2147483648 }] });
    const graph = await tenant.graphql('mutation($i: CreateCampaignInput!) { createCampaign(input: $i) { id } }', { i: { name: 'Bigger', budgetCents: 3_000_000_000 } });
    expect(graph.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', validation: [{ ...LE_INT32, loc: ['input', 'budgetCents'], input: 3_000_000_000 }] });
  });
});
