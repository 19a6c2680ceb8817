import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { admin, baseUrl, createTestTenant, request, type HttpResult, type TestTenant } from '../utils/e2e';
import { cardBody, createPatient } from '../subgraphs/billing/rest-kit';
import { graphQLRefusal } from '../utils/graphql-refusal';

/** Issue 18's hostile inputs, through real HTTP: each is a JSON answer (never HTML, never a 500) and writes nothing. */

/** Sends a raw body (a string is sent as is) as the tenant, JSON content type unless told otherwise. */
function send(tenant: TestTenant, method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<HttpResult> {
  return request(`${baseUrl()}${path}`, { method, headers: { ...tenant.headers, 'content-type': 'application/json', ...headers }, body });
}

/** The answer is the contract's JSON with this status (a GraphQL error on /graphql), and carries no trace of the server's insides. */
function expectJson(res: HttpResult, status: number, graphql = false): void {
  expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({ status, type: 'application/json; charset=utf-8' });
  if (graphql) graphQLRefusal(res);
  else expect(res.body).toHaveProperty('detail');
  expect(res.text).not.toMatch(/<html|<pre|\bat \w+ \(|node_modules|\/work\//i);
}

const NUL = 'text must not contain NUL characters';
const LONE = 'text must not contain unpaired surrogate characters';
const textIssue = (loc: (string | number)[], input: string, error: string) => ({ type: 'value_error', loc, msg: `Value error, ${error}`, input, ctx: { error } });

async function createDashboard(tenant: TestTenant, name = 'Original'): Promise<string> {
  const res = await send(tenant, 'POST', '/analytics/dashboards', JSON.stringify({ name }));
  expect(res.status).toBe(201);
  return res.body.id;
}

async function createWidget(tenant: TestTenant, dashboardId: string, over: Record<string, unknown> = {}): Promise<HttpResult> {
  const body = { dashboardId, name: 'Original', chartType: 'line', query: { measures: ['revenue.netAmount'] }, ...over };
  return send(tenant, 'POST', '/analytics/widgets', JSON.stringify(body));
}

async function createCampaign(tenant: TestTenant): Promise<string> {
  const res = await tenant.graphql('mutation($i: CreateCampaignInput!) { createCampaign(input: $i) { id } }', { i: { name: 'Original', startsAt: '2026-03-01T00:00:00Z' } });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.createCampaign.id;
}

const campaignName = async (tenant: TestTenant, id: string) => (await tenant.graphql('query($id: ID!) { campaign(id: $id) { name } }', { id })).body.data.campaign.name;
const dashboardNames = async (tenant: TestTenant) => (await tenant.get('/analytics/dashboards')).body.items.map((d: { name: string }) => d.name);

describe(`hostile input (${process.env.E2E_MODE} mode)`, () => {
  it('refuses NUL in body strings with a 422 naming the field, and writes nothing (tenant, dashboards, widgets, campaigns)', async () => {
    const tenant = await createTestTenant('Nul Clinic');
    const update = await send(tenant, 'PUT', '/tenant/update', JSON.stringify({ name: 'a\u0000b' }));
    expectJson(update, 422);
    expect(update.body).toEqual({ detail: [textIssue(['body', 'name'], 'a\u0000b', NUL)] });
    expect((await tenant.get('/tenant/public')).body.name).toBe('Nul Clinic');

    const dashboard = await send(tenant, 'POST', '/analytics/dashboards', JSON.stringify({ name: 'ok', layout: { 'key\u0000': 1 } }));
    expectJson(dashboard, 422);
    expect(dashboard.body.detail).toEqual([textIssue(['body', 'layout', 'key\u0000'], 'key\u0000', NUL)]);
    expect(await dashboardNames(tenant)).toEqual([]);

    const dashboardId = await createDashboard(tenant);
    const widget = (await createWidget(tenant, dashboardId)).body;
    const widgetUpdate = await send(tenant, 'PUT', `/analytics/widgets/${widget.id}`, JSON.stringify({ name: '\u0000' }));
    expectJson(widgetUpdate, 422);
    expect(widgetUpdate.body.detail).toEqual([textIssue(['body', 'name'], '\u0000', NUL)]);
    expect((await tenant.get(`/analytics/widgets/${widget.id}`)).body.name).toBe('Original');

    const campaignId = await createCampaign(tenant);
    const campaign = await send(tenant, 'PUT', `/opportunity/campaign/${campaignId}`, JSON.stringify({ name: 'x\u0000' }));
    expectJson(campaign, 422);
    expect(campaign.body.detail).toEqual([textIssue(['body', 'name'], 'x\u0000', NUL)]);
    expect(await campaignName(tenant, campaignId)).toBe('Original');
  });

  it('refuses NUL in a payment method (nothing stored: the next card is still the default) and in query parameters', async () => {
    const tenant = await createTestTenant();
    const patient = await createPatient(tenant);
    const path = `/user/patient/payment-methods/create?patient_id=${patient}`;
    const refused = await send(tenant, 'POST', path, JSON.stringify(cardBody({ paymentMethodId: 'pm_\u0000' })));
    expectJson(refused, 422);
    // A `basic` route (contract part 7.2): loc, msg, type.
    expect(refused.body.detail).toEqual([{ loc: ['body', 'paymentMethodId'], msg: `Value error, ${NUL}`, type: 'value_error' }]);
    expect((await send(tenant, 'POST', path, JSON.stringify(cardBody()))).body.isDefault).toBe(true);

    const byName = await tenant.get('/analytics/dashboards?name=a%00b');
    expectJson(byName, 422);
    expect(byName.body.detail).toEqual([textIssue(['query', 'name'], 'a\u0000b', NUL)]);
    const comment = await tenant.get('/analytics/dashboards/product-sales-breakdown/revenue-breakdown-summary?timezone=UTC&comment=%00');
    expectJson(comment, 422);
    expect(comment.body.detail).toEqual([textIssue(['query', 'comment'], '\u0000', NUL)]);
  });

  it('refuses unpaired surrogates the same way, wherever the text goes', async () => {
    const tenant = await createTestTenant('Surrogate Clinic');
    const update = await send(tenant, 'PUT', '/tenant/update', '{"name": "a\\ud800"}');
    expectJson(update, 422);
    expect(update.body.detail).toEqual([textIssue(['body', 'name'], 'a\ud800', LONE)]);
    expect((await tenant.get('/tenant/public')).body.name).toBe('Surrogate Clinic');
    const dashboard = await send(tenant, 'POST', '/analytics/dashboards', '{"name": "\\udc00x"}');
    expect(dashboard.body.detail).toEqual([textIssue(['body', 'name'], '\udc00x', LONE)]);
    // A well-formed pair is one character, and welcome.
    expect((await send(tenant, 'POST', '/analytics/dashboards', '{"name": "\\ud83d\\ude00"}')).body.name).toBe('😀');
    const operator = await admin('/tenants', { method: 'POST', body: '{"name": "\\ud800"}' });
    expectJson(operator, 422);
    expect(operator.body.detail).toEqual([textIssue(['body', 'name'], '\ud800', LONE)]);
  });

  it('refuses JSON nested 5,000 levels deep with a JSON 422 everywhere, before anything recursive runs', async () => {
    const tenant = await createTestTenant();
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const tooDeep = { type: 'value_error', loc: ['body'], msg: 'Value error, JSON must not nest deeper than 64 levels', input: null, ctx: { error: 'JSON must not nest deeper than 64 levels' } };
    for (const path of ['/analytics/dashboards', '/analytics/widgets/execute-query', '/graphql']) {
      const res = await send(tenant, 'POST', path, `{"name": "x", "layout": ${deep}}`);
      expectJson(res, 422, path === '/graphql');
      // /graphql carries the same issues as a GraphQL error's `validation` (docs/api.md, Errors).
      expect(path === '/graphql' ? res.body.errors[0].extensions : res.body.detail).toEqual(path === '/graphql' ? { code: 'BAD_USER_INPUT', validation: [tooDeep] } : [tooDeep]);
    }
    // The lead route reads its body once its key is known (an unknown one is its 404, the body unread).
    const key = (await tenant.graphql('mutation { createCampaign(input: { name: "Deep leads" }) { webhook { webhookKey } } }')).body.data.createCampaign.webhook.webhookKey;
    const lead = await request(`${baseUrl()}/opportunity/leads/${key}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: deep });
    expectJson(lead, 422);
    expect(lead.body.detail).toEqual([tooDeep]);
    expectJson(await admin('/tenants', { method: 'POST', body: deep }), 422);
    // A `basic` route keeps its own 422 shape.
    const basic = await send(tenant, 'POST', '/inventory/members/manual-payment', deep);
    expect(basic.body.detail).toEqual([{ loc: ['body'], msg: tooDeep.msg, type: 'value_error' }]);
    expect(await dashboardNames(tenant)).toEqual([]);
    // Nesting a contract body can use still passes.
    const layout = JSON.parse('{"a":'.repeat(40) + '1' + '}'.repeat(40));
    expect((await send(tenant, 'POST', '/analytics/dashboards', JSON.stringify({ name: 'nested', layout }))).status).toBe(201);
  });

  it('answers null where JSON is required with a 422, not a 500', async () => {
    const tenant = await createTestTenant();
    const query = await send(tenant, 'POST', '/analytics/widgets/execute-query', 'null');
    expectJson(query, 422);
    expect(query.body).toEqual({ detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] });
    const dashboardId = await createDashboard(tenant);
    const widget = await createWidget(tenant, dashboardId, { query: null });
    expectJson(widget, 422);
    expect(widget.body).toEqual({ detail: [{ type: 'dict_type', loc: ['body', 'query'], msg: 'Input should be a valid dictionary', input: null }] });
    expect((await tenant.get(`/analytics/widgets?dashboard_id=${dashboardId}`)).body).toEqual([]);
  });

  it('answers a false Content-Encoding: gzip with a JSON 400 on every JSON route; a true one is read', async () => {
    const tenant = await createTestTenant();
    const gzip = { 'content-encoding': 'gzip' };
    const parseFailure = { detail: 'There was an error parsing the body' };
    for (const [method, path] of [['POST', '/analytics/dashboards'], ['PUT', '/tenant/update'], ['POST', '/graphql']]) {
      const res = await send(tenant, method, path, '{"name": "x"}', gzip);
      expectJson(res, 400, path === '/graphql');
      expect(path === '/graphql' ? { detail: graphQLRefusal(res).message } : res.body).toEqual(parseFailure);
      if (path === '/graphql') expect(res.body.errors[0].extensions).toEqual({ code: 'BAD_REQUEST' });
    }
    const operator = await admin('/tenants', { method: 'POST', body: '{"name": "x"}', headers: gzip });
    expectJson(operator, 400);
    expect(await dashboardNames(tenant)).toEqual([]);
    const real = await send(tenant, 'POST', '/analytics/dashboards', gzipSync(JSON.stringify({ name: 'zipped' })), gzip);
    expect(real.status).toBe(201);
    expect(await dashboardNames(tenant)).toEqual(['zipped']);
  });

  it('refuses a non-JSON body on every JSON route with FastAPI\'s 422, changing nothing', async () => {
    const tenant = await createTestTenant('Plain Clinic');
    const dashboardId = await createDashboard(tenant);
    const widget = (await createWidget(tenant, dashboardId)).body;
    const campaignId = await createCampaign(tenant);
    const text = { 'content-type': 'text/plain' };
    const body = '{"name": "Changed"}';
    const refused = { detail: [{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: body }] };
    for (const path of [`/analytics/dashboards/${dashboardId}`, `/analytics/widgets/${widget.id}`, `/opportunity/campaign/${campaignId}`, '/tenant/update']) {
      const res = await send(tenant, 'PUT', path, body, text);
      expectJson(res, 422);
      expect(res.body).toEqual(refused);
    }
    expect((await send(tenant, 'POST', '/analytics/dashboards', body, text)).body).toEqual(refused);
    expect(await dashboardNames(tenant)).toEqual(['Original']);
    expect((await tenant.get(`/analytics/widgets/${widget.id}`)).body.name).toBe('Original');
    expect(await campaignName(tenant, campaignId)).toBe('Original');
    expect((await tenant.get('/tenant/public')).body.name).toBe('Plain Clinic');
    // No content type at all is read as JSON, as FastAPI does.
    const bare = await request(`${baseUrl()}/analytics/dashboards/${dashboardId}`, { method: 'PUT', headers: tenant.headers, body: new Blob([body]) });
    expect(bare.status).toBe(200);
    expect(bare.body.name).toBe('Changed');
  });

  it('answers over-long URLs and request heads in JSON: 414, and 431 for 10,000 repeated parameters', async () => {
    const tenant = await createTestTenant();
    const long = await tenant.get(`/analytics/dashboards?name=${'a'.repeat(10_000)}`);
    expectJson(long, 414);
    expect(long.body).toEqual({ detail: 'URI too long' });
    const repeated = await tenant.get(`/analytics/dashboards?${Array.from({ length: 10_000 }, () => 'name=a').join('&')}`);
    expectJson(repeated, 431);
    expect(repeated.body).toEqual({ detail: 'Request header fields too large' });
    const header = await tenant.get('/tenant/public', { 'X-Padding': 'p'.repeat(20_000) });
    expectJson(header, 431);
    // Long but within bounds: read whole, a parameter past express's silent 1,000th included.
    await createDashboard(tenant, 'Kept');
    const filtered = await tenant.get(`/analytics/dashboards?${'a&'.repeat(1_500)}name=no-such-dashboard`);
    expect(filtered.status).toBe(200);
    expect(filtered.body.items).toEqual([]);
  });

  it('answers a request node cannot parse with a JSON 400, not an empty one', async () => {
    const { hostname, port } = new URL(baseUrl());
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => socket.write('GET /tenant/public HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk)).on('close', () => resolve(text)).on('error', reject);
    });
    const [head, body] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(head).toContain('Content-Type: application/json; charset=utf-8');
    expect(JSON.parse(body)).toEqual({ detail: 'Invalid HTTP request' });
  });

  it('reads body scalars in Pydantic lax mode, as the API it replaces does', async () => {
    const tenant = await createTestTenant();
    const dashboardId = await createDashboard(tenant);
    const lax = await createWidget(tenant, dashboardId, { isArchived: 'yes', position: { x: '3', y: 1.0, w: ' 6 ', h: true } });
    expect(lax.status).toBe(201);
    expect(lax.body).toMatchObject({ isArchived: true, position: { x: 3, y: 1, w: 6, h: 1 } });
    expect((await createWidget(tenant, dashboardId, { isArchived: 0 })).body.isArchived).toBe(false);
    const refused = await createWidget(tenant, dashboardId, { isArchived: 'perhaps', position: { x: '1.5', y: 2.5, w: 6, h: 4 }, name: 5 });
    expectJson(refused, 422);
    expect(refused.body.detail.map((d: { type: string; loc: string[] }) => `${d.type} ${d.loc.join('.')}`)).toEqual([
      'string_type body.name',
      'int_parsing body.position.x',
      'int_from_float body.position.y',
      'bool_parsing body.isArchived',
    ]);
  });
});
