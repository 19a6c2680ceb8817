import { baseUrl, createTestTenant, request, type HttpResult, type TestTenant } from '../utils/e2e';

/** Sends a JSON request as the tenant. */
function send(tenant: TestTenant, method: string, path: string, body?: unknown): Promise<HttpResult> {
  return request(`${baseUrl()}${path}`, {
    method,
    headers: body === undefined ? tenant.headers : { ...tenant.headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Posts a lead the way an ad platform does: no TENANT, no API-KEY. */
const postLead = (key: string, body: unknown) =>
  request(`${baseUrl()}/opportunity/leads/${key}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const CAMPAIGN_FIELDS = `id name locationId description platformId platformAssetId externalCampaignId externalResourceName externalName
  externalStatus externalCurrency externalDailyBudgetCents externalLifetimeBudgetCents externalLastSeenAt externalLastSyncedAt
  externalStaleAt externalSyncError isActive startsAt endsAt budgetCents pipelineId webhook { webhookKey webhookUrl redirectUrl }
  createdAt updatedAt opportunityCount convertedCount`;

async function createCampaign(tenant: TestTenant, input: Record<string, unknown> = {}) {
  const res = await tenant.graphql(`mutation($input: CreateCampaignInput!) { createCampaign(input: $input) { ${CAMPAIGN_FIELDS} } }`, {
    input: { name: 'Spring offer', startsAt: '2026-03-01T00:00:00Z', endsAt: '2026-05-31T00:00:00Z', budgetCents: 50000, ...input },
  });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.createCampaign;
}

const valueErrorAt = (loc: string[], reason: string, input: unknown) => ({ type: 'value_error', loc, msg: `Value error, ${reason}`, input, ctx: { error: reason } });
const valueError = (field: string, reason: string, input: unknown) => valueErrorAt(['body', field], reason, input);

describe(`campaigns (${process.env.E2E_MODE} mode)`, () => {
  it('createCampaign makes a real lead webhook; PUT answers every field of the campaign record', async () => {
    const tenant = await createTestTenant();
    const campaign = await createCampaign(tenant, { redirectUrl: 'https://clinic.example.com/thanks' });
    expect(campaign.webhook.webhookKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(campaign.webhook).toEqual({
      webhookKey: campaign.webhook.webhookKey,
      webhookUrl: `${baseUrl()}/opportunity/leads/${campaign.webhook.webhookKey}`,
      redirectUrl: 'https://clinic.example.com/thanks',
    });
    const res = await send(tenant, 'PUT', `/opportunity/campaign/${campaign.id}`, { description: 'Search ads', budgetCents: 75000, isActive: false });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([
      'id', 'name', 'locationId', 'description', 'platformId', 'platformAssetId', 'externalCampaignId', 'externalResourceName',
      'externalName', 'externalStatus', 'externalCurrency', 'externalDailyBudgetCents', 'externalLifetimeBudgetCents',
      'externalLastSeenAt', 'externalLastSyncedAt', 'externalStaleAt', 'externalSyncError', 'isActive', 'startDate', 'endDate',
      'budgetCents', 'pipelineId', 'webhook', 'createdDate', 'updatedDate', 'opportunityCount', 'convertedCount',
    ]);
    expect(res.body).toMatchObject({
      id: campaign.id,
      name: 'Spring offer',
      description: 'Search ads',
      budgetCents: 75000,
      isActive: false,
      startDate: '2026-03-01T00:00:00.000Z',
      endDate: '2026-05-31T00:00:00.000Z',
      webhook: campaign.webhook,
      opportunityCount: 0,
      convertedCount: 0,
    });
  });

  it('PUT validation: end before start, negative budget and empty name are 422 with input and ctx', async () => {
    const tenant = await createTestTenant();
    const campaign = await createCampaign(tenant);
    const res = await send(tenant, 'PUT', `/opportunity/campaign/${campaign.id}`, { name: '', startDate: '2026-06-01T00:00:00Z', endDate: '2026-05-01T00:00:00Z', budgetCents: -1 });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      detail: [
        valueError('name', 'name must not be empty', ''),
        valueError('endDate', 'endDate must not be before startDate', '2026-05-01T00:00:00Z'),
        valueError('budgetCents', 'budgetCents must not be negative', -1),
      ],
    });
    // Only one end sent: checked against the stored other end.
    const early = await send(tenant, 'PUT', `/opportunity/campaign/${campaign.id}`, { endDate: '2026-01-01' });
    expect(early.body).toEqual({ detail: [valueError('endDate', 'endDate must not be before startDate', '2026-01-01T00:00:00Z')] });
    const late = await send(tenant, 'PUT', `/opportunity/campaign/${campaign.id}`, { startDate: '2026-12-01T00:00:00Z' });
    expect(late.body).toEqual({ detail: [valueError('startDate', 'endDate must not be before startDate', '2026-12-01T00:00:00Z')] });
    const badDate = await send(tenant, 'PUT', `/opportunity/campaign/${campaign.id}`, { startDate: '2026-13-01' });
    expect(badDate.body).toEqual({
      detail: [{ type: 'datetime_from_date_parsing', loc: ['body', 'startDate'], msg: 'Input should be a valid datetime or date, month value is outside expected range of 1-12', input: '2026-13-01', ctx: { error: 'month value is outside expected range of 1-12' } }],
    });
    const types = await send(tenant, 'PUT', `/opportunity/campaign/${campaign.id}`, { budgetCents: 'ten', webhookKey: 'mine' });
    expect(types.body).toEqual({
      detail: [
        { type: 'int_parsing', loc: ['body', 'budgetCents'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: 'ten' },
        { type: 'extra_forbidden', loc: ['body', 'webhookKey'], msg: 'Extra inputs are not permitted', input: 'mine' },
      ],
    });
    const url = await send(tenant, 'PUT', `/opportunity/campaign/${campaign.id}`, { redirectUrl: 'javascript:alert(1)' });
    expect(url.body).toEqual({ detail: [valueError('redirectUrl', 'redirectUrl must be an absolute http or https URL', 'javascript:alert(1)')] });
    // Nothing was half-written.
    const unchanged = await tenant.graphql(`{ campaign(id: "${campaign.id}") { name startsAt endsAt budgetCents webhook { redirectUrl } } }`);
    expect(unchanged.body.data.campaign).toEqual({ name: 'Spring offer', startsAt: campaign.startsAt, endsAt: campaign.endsAt, budgetCents: 50000, webhook: { redirectUrl: null } });
    // The graph's names are the graph's: REST's body refuses them, and the graph words the same refusal in its own.
    const graphName = await send(tenant, 'PUT', `/opportunity/campaign/${campaign.id}`, { startsAt: '2026-03-01T00:00:00Z' });
    expect(graphName.body).toEqual({ detail: [{ type: 'extra_forbidden', loc: ['body', 'startsAt'], msg: 'Extra inputs are not permitted', input: '2026-03-01T00:00:00Z' }] });
    const onGraph = await tenant.graphql('mutation($id: ID!, $i: UpdateCampaignInput!) { updateCampaign(id: $id, input: $i) { id } }', { id: campaign.id, i: { endsAt: '2026-01-01T00:00:00Z' } });
    expect(onGraph.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', validation: [valueErrorAt(['input', 'endsAt'], 'endsAt must not be before startsAt', '2026-01-01T00:00:00Z')] });
  });

  it('PUT on an unknown campaign, of any id shape or of another tenant, is 404', async () => {
    const [a, b] = await Promise.all([createTestTenant('A'), createTestTenant('B')]);
    const campaign = await createCampaign(a);
    for (const id of ['00000000-0000-0000-0000-000000000000', 'not-a-uuid', campaign.id]) {
      const res = await send(b, 'PUT', `/opportunity/campaign/${id}`, { name: 'Taken' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Campaign not found' });
    }
    expect((await b.graphql(`{ campaign(id: "${campaign.id}") { id } }`)).body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await b.graphql('{ campaigns { totalCount } }')).body.data.campaigns.totalCount).toBe(0);
    expect((await a.graphql(`{ campaign(id: "${campaign.id}") { name } }`)).body.data.campaign.name).toBe('Spring offer');
  });

  it('the lead webhook takes a lead with no API key, and the counts follow', async () => {
    const tenant = await createTestTenant();
    const campaign = await createCampaign(tenant, { redirectUrl: 'https://clinic.example.com/thanks' });
    const res = await postLead(campaign.webhook.webhookKey, { name: 'Jane Doe', email: 'jane@example.com', fields: { adId: '123' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ opportunityId: expect.stringMatching(/^[0-9a-f-]{36}$/), redirectUrl: 'https://clinic.example.com/thanks' });
    expect(Number(res.headers.get('x-ratelimit-limit'))).toBeGreaterThan(0);
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect(res.headers.get('ratelimit-policy')).toMatch(/^"anonymous";q=\d+;w=\d+$/);
    expect((await postLead(campaign.webhook.webhookKey, { phone: '+1 555 010 0199' })).status).toBe(201);
    const counted = await tenant.graphql(`{ campaigns { nodes { id opportunityCount convertedCount } } }`);
    expect(counted.body.data.campaigns.nodes).toEqual([{ id: campaign.id, opportunityCount: 2, convertedCount: 0 }]);
    // The same key works with credentials of any tenant too: the key alone names the campaign.
    const other = await createTestTenant();
    const withHeaders = await request(`${baseUrl()}/opportunity/leads/${campaign.webhook.webhookKey}`, {
      method: 'POST',
      headers: { ...other.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x@example.com' }),
    });
    expect(withHeaders.status).toBe(201);
    const put = await send(tenant, 'PUT', `/opportunity/campaign/${campaign.id}`, {});
    expect(put.body).toMatchObject({ opportunityCount: 3, convertedCount: 0 });
  });

  it('the lead webhook: unknown key 404, inactive campaign 409, bad body 422', async () => {
    const tenant = await createTestTenant();
    const campaign = await createCampaign(tenant);
    for (const key of ['A'.repeat(43), 'short', "' or 1=1 --"]) {
      const res = await postLead(encodeURIComponent(key), { name: 'X' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Campaign not found' });
      expect(res.headers.get('ratelimit-policy')).toMatch(/^"anonymous"/);
    }
    const empty = await postLead(campaign.webhook.webhookKey, { name: '  ' });
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual({ detail: [{ type: 'value_error', loc: ['body'], msg: 'Value error, name, email or phone is required', input: { name: '  ' }, ctx: { error: 'name, email or phone is required' } }] });
    const email = await postLead(campaign.webhook.webhookKey, { email: 'not-an-address' });
    expect(email.body).toEqual({ detail: [valueError('email', 'value is not a valid email address', 'not-an-address')] });
    const extra = await postLead(campaign.webhook.webhookKey, { name: 'X', campaignId: campaign.id });
    expect(extra.body.detail[0]).toMatchObject({ type: 'extra_forbidden', loc: ['body', 'campaignId'] });
    const fields = await postLead(campaign.webhook.webhookKey, { name: 'X', fields: 'free text' });
    expect(fields.body).toEqual({ detail: [{ type: 'dict_type', loc: ['body', 'fields'], msg: 'Input should be a valid dictionary', input: 'free text' }] });
    expect((await send(tenant, 'PUT', `/opportunity/campaign/${campaign.id}`, { isActive: false })).status).toBe(200);
    const inactive = await postLead(campaign.webhook.webhookKey, { name: 'Late' });
    expect(inactive.status).toBe(409);
    expect(inactive.body).toEqual({ detail: 'Campaign is not accepting leads' });
    const counts = await tenant.graphql(`{ campaign(id: "${campaign.id}") { opportunityCount } }`);
    expect(counts.body.data.campaign.opportunityCount).toBe(0);
  });

  it('campaigns pages as a connection, the NULLs of a nullable sort key last both ways, and filters', async () => {
    const tenant = await createTestTenant();
    await createCampaign(tenant, { name: 'Alpha', locationId: 'north', budgetCents: null });
    await createCampaign(tenant, { name: 'Beta', isActive: false, budgetCents: null });
    await createCampaign(tenant, { name: 'Gamma 100%', budgetCents: 10 });
    const page = await tenant.graphql('{ campaigns(first: 2, sortBy: NAME, sortDirection: ASC) { totalCount pageInfo { hasNextPage } nodes { name } } }');
    expect(page.body.data.campaigns).toEqual({ totalCount: 3, pageInfo: { hasNextPage: true }, nodes: [{ name: 'Alpha' }, { name: 'Beta' }] });
    // budgetCents is null but for Gamma: NULLs come last ascending and descending, and cursors on a NULL page on.
    const byBudget = async (args: string) => {
      const res = await tenant.graphql(`{ campaigns(sortBy: BUDGET_CENTS, ${args}) { pageInfo { startCursor endCursor } nodes { name } } }`);
      expect(res.body.errors).toBeUndefined();
      return res.body.data.campaigns as { pageInfo: { startCursor: string; endCursor: string }; nodes: { name: string }[] };
    };
    for (const direction of ['ASC', 'DESC']) {
      const first = await byBudget(`sortDirection: ${direction}, first: 1`);
      expect(first.nodes).toEqual([{ name: 'Gamma 100%' }]);
      const rest = await byBudget(`sortDirection: ${direction}, first: 5, after: "${first.pageInfo.endCursor}"`);
      expect(rest.nodes.map((c) => c.name).sort()).toEqual(['Alpha', 'Beta']);
      const afterNull = await byBudget(`sortDirection: ${direction}, first: 5, after: "${rest.pageInfo.startCursor}"`);
      expect(afterNull.nodes).toEqual([rest.nodes[1]]);
      const back = await byBudget(`sortDirection: ${direction}, last: 5, before: "${rest.pageInfo.startCursor}"`);
      expect(back.nodes).toEqual([{ name: 'Gamma 100%' }]);
    }
    const filtered = await tenant.graphql('{ a: campaigns(isActive: false) { nodes { name } } b: campaigns(name: "0%") { nodes { name } } c: campaigns(locationId: "north") { nodes { name } } }');
    expect(filtered.body.data).toEqual({ a: { nodes: [{ name: 'Beta' }] }, b: { nodes: [{ name: 'Gamma 100%' }] }, c: { nodes: [{ name: 'Alpha' }] } });
    const tooMany = await tenant.graphql('{ campaigns(first: 101) { totalCount } }');
    expect(tooMany.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', validation: [{ type: 'less_than_equal', loc: ['first'] }] });
  });
});
