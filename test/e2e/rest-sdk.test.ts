import { request as httpRequest } from 'node:http';
import { createRestClient, multipart, type RestClient } from '../../clients/rest';
import { makeImage } from '../subgraphs/tenant/image-fixtures';
import { addCard, gql } from '../subgraphs/billing/rest-kit';
import { createResources, type ForeignIds } from '../utils/abuse-tenants';
import { baseUrl, createTestTenant, request, type TestTenant } from '../utils/e2e';
import { documentOperations, DocumentValidator, responseProblems, successStatus, type DocOperation } from '../utils/rest-sdk-kit';

// Every operation of /openapi.json called through the REST SDK (clients/rest) with a valid request,
// its answer held to the document: the documented success status, Content-Type and schema. An
// operation added to the document without a case here fails the first test.

/** What a case hands back: the response and its body as the SDK parsed it (data, or error for non-2xx). */
interface Answer {
  response: Response;
  body: unknown;
}

interface Ctx {
  api: RestClient;
  tenant: TestTenant;
  ids: ForeignIds;
}

const answer = ({ response, data, error }: { response: Response; data?: unknown; error?: unknown }): Answer => ({ response, body: response.ok ? data : error });
const dashboard = async ({ api }: Ctx) => (await api.POST('/analytics/dashboards', { body: { name: 'SDK' } })).data!.id;
const widgetBody = (dashboardId: string) => ({ dashboardId, name: 'SDK', chartType: 'line' as const, query: { measures: ['revenue.netAmount'] } });
const png = async () => new Blob([new Uint8Array(await makeImage('png'))], { type: 'image/png' });
const ASSET = '/assets/{asset_id}' as const;
const EXPORT = '/audit/events/export' as const;
const BREAKDOWN = '/analytics/dashboards/product-sales-breakdown';

/** A logo's asset id: uploaded for the case, read back from the URL the upload answers. */
async function assetId({ api }: Ctx): Promise<string> {
  const { data } = await api.POST('/tenant/upload-logo', { body: { file: await png() }, bodySerializer: multipart });
  return new URL(data!).pathname.split('/').pop()!;
}

/** A method the platform's path does not serve, for its documented 405. fetch() refuses to send TRACE, so node:http does. */
async function notServed(method: string, path: string): Promise<Answer> {
  if (method !== 'TRACE') {
    const res = await request(`${baseUrl()}${path}`, { method });
    return { response: new Response(null, { status: res.status, headers: res.headers }), body: method === 'HEAD' ? undefined : res.body };
  }
  return new Promise((resolve, reject) => {
    httpRequest(`${baseUrl()}${path}`, { method }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk)).on('end', () => {
        const headers = new Headers(Object.entries(res.headers).map(([k, v]) => [k, String(v)]));
        resolve({ response: new Response(null, { status: res.statusCode, headers }), body: JSON.parse(text) });
      });
    }).on('error', reject).end();
  });
}

const CASES: Record<string, (ctx: Ctx) => Promise<Answer>> = {
  'GET /tenant/public': async ({ api }) => answer(await api.GET('/tenant/public')),
  'GET /tenant/private': async ({ api }) => answer(await api.GET('/tenant/private')),
  'GET /tenant/logo': async ({ api }) => answer(await api.GET('/tenant/logo')),
  'PUT /tenant/update': async ({ api }) => answer(await api.PUT('/tenant/update', { body: { timezone: 'America/New_York', address: { city: 'Portland' } } })),
  'POST /tenant/upload-logo': async ({ api }) => answer(await api.POST('/tenant/upload-logo', { body: { file: await png() }, bodySerializer: multipart })),
  'POST /tenant/upload-receipt-logo': async ({ api }) => answer(await api.POST('/tenant/upload-receipt-logo', { body: { file: await png() }, bodySerializer: multipart })),
  'GET /tenant/webhook-config': async ({ api }) => answer(await api.GET('/tenant/webhook-config')),
  'PUT /tenant/webhook-config': async ({ api }) => answer(await api.PUT('/tenant/webhook-config', { body: { url: 'https://hooks.example.com/platform', enabled: true, events: ['tenant.updated'] } })),
  'POST /analytics/dashboards': async ({ api }) => answer(await api.POST('/analytics/dashboards', { body: { name: 'Revenue', description: null, layout: [] } })),
  'GET /analytics/dashboards': async ({ api }) => answer(await api.GET('/analytics/dashboards', { params: { query: { page: 1 } } })),
  'PUT /analytics/dashboards/{dashboard_id}': async ({ api, ids }) =>
    answer(await api.PUT('/analytics/dashboards/{dashboard_id}', { params: { path: { dashboard_id: ids.dashboard_id } }, body: { name: 'Renamed', locationId: null } })),
  'DELETE /analytics/dashboards/{dashboard_id}': async (ctx) =>
    answer(await ctx.api.DELETE('/analytics/dashboards/{dashboard_id}', { params: { path: { dashboard_id: await dashboard(ctx) } } })),
  'POST /analytics/widgets': async ({ api, ids }) => answer(await api.POST('/analytics/widgets', { body: widgetBody(ids.dashboard_id) })),
  'GET /analytics/widgets': async ({ api, ids }) => answer(await api.GET('/analytics/widgets', { params: { query: { dashboard_id: ids.dashboard_id } } })),
  'GET /analytics/widgets/{widget_id}': async ({ api, ids }) => answer(await api.GET('/analytics/widgets/{widget_id}', { params: { path: { widget_id: ids.widget_id } } })),
  'PUT /analytics/widgets/{widget_id}': async ({ api, ids }) =>
    answer(await api.PUT('/analytics/widgets/{widget_id}', { params: { path: { widget_id: ids.widget_id } }, body: { position: { x: 0, y: 0, w: 1, h: 1 }, isArchived: false } })),
  'DELETE /analytics/widgets/{widget_id}': async (ctx) => {
    const { data } = await ctx.api.POST('/analytics/widgets', { body: widgetBody(ctx.ids.dashboard_id) });
    return answer(await ctx.api.DELETE('/analytics/widgets/{widget_id}', { params: { path: { widget_id: data!.id } } }));
  },
  'POST /analytics/widgets/execute-query': async ({ api }) =>
    answer(await api.POST('/analytics/widgets/execute-query', { body: { measures: ['revenue.netAmount'], dimensions: ['revenue.location'], timezone: 'UTC' } })),
  [`GET ${BREAKDOWN}/revenue-breakdown-groups`]: async ({ api }) =>
    answer(await api.GET(`${BREAKDOWN}/revenue-breakdown-groups`, { params: { query: { group_by: 'location', timezone: 'UTC' } } })),
  [`GET ${BREAKDOWN}/revenue-breakdown`]: async ({ api }) => answer(await api.GET(`${BREAKDOWN}/revenue-breakdown`, { params: { query: { timezone: 'UTC' } } })),
  [`GET ${BREAKDOWN}/revenue-breakdown-group-summaries`]: async ({ api }) =>
    answer(await api.GET(`${BREAKDOWN}/revenue-breakdown-group-summaries`, { params: { query: { group_by: 'payment_medium', timezone: 'UTC' } } })),
  [`GET ${BREAKDOWN}/revenue-breakdown-summary`]: async ({ api }) => answer(await api.GET(`${BREAKDOWN}/revenue-breakdown-summary`, { params: { query: { timezone: 'UTC' } } })),
  'POST /user/patient/payment-methods/create': async ({ api, ids }) =>
    answer(
      await api.POST('/user/patient/payment-methods/create', {
        params: { query: { patient_id: ids.patient_id } },
        body: { paymentMethodId: `pm_sdk_${Math.random().toString(36).slice(2, 12)}`, methodType: 'CARD', card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: new Date().getUTCFullYear() + 3 } },
      }),
    ),
  'PUT /opportunity/campaign/{campaign_id}': async ({ api, ids }) =>
    answer(await api.PUT('/opportunity/campaign/{campaign_id}', { params: { path: { campaign_id: ids.campaign_id } }, body: { name: 'Spring', budgetCents: 1000, endDate: null } })),
  'POST /opportunity/leads/{webhook_key}': async ({ ids }) => {
    // A public route: no credentials, the key in the path stands in.
    const anonymous = createRestClient({ baseUrl: baseUrl(), tenant: '', apiKey: '' });
    return answer(await anonymous.POST('/opportunity/leads/{webhook_key}', { params: { path: { webhook_key: ids.webhook_key } }, body: { name: 'Jane Doe', email: 'jane@example.com' } }));
  },
  'POST /billing/gift-cards/issued/{gift_card_id}/activate': async ({ api, ids }) =>
    answer(await api.POST('/billing/gift-cards/issued/{gift_card_id}/activate', { params: { path: { gift_card_id: ids.gift_card_id } }, body: { sendNotification: false } })),
  'POST /inventory/members/manual-payment': async ({ api, tenant, ids }) => {
    const card = await addCard(tenant, ids.patient_id);
    const member = 'mutation($i: CreateMemberInput!) { createMember(input: $i) { id } }';
    const { createMember } = await gql(tenant, member, { i: { patientId: ids.patient_id, planName: 'Monthly', priceCents: 4900, interval: 'MONTH', status: 'PAST_DUE', balanceDueCents: 4900 } });
    return answer(await api.POST('/inventory/members/manual-payment', { body: { memberId: createMember.id, paymentMethodId: card.id, comment: null } }));
  },
  'GET /billing/merchant_accounts': async ({ api }) => answer(await api.GET('/billing/merchant_accounts')),
  'POST /notes/templates/{template_id}/questions/{question_id}/migrate': async ({ api, ids }) =>
    answer(await api.POST('/notes/templates/{template_id}/questions/{question_id}/migrate', { params: { path: { template_id: ids.template_id, question_id: ids.question_id } }, parseAs: 'text' })),
  'GET /audit/events': async ({ api }) => answer(await api.GET('/audit/events', { params: { query: { per_page: 5 } } })),
  'GET /assets/{asset_id}': async (ctx) => answer(await ctx.api.GET(ASSET, { params: { path: { asset_id: await assetId(ctx) } }, parseAs: 'blob' })),
  'GET /audit/events/export': async ({ api }) => answer(await api.GET(EXPORT, { params: { query: { format: 'csv' } }, parseAs: 'text' })),
};
for (const method of ['PUT', 'POST', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE']) CASES[`${method} ${ASSET}`] = async (ctx) => notServed(method, `/assets/${await assetId(ctx)}`);
for (const method of ['PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE']) CASES[`${method} ${EXPORT}`] = async () => notServed(method, EXPORT);

describe(`the REST SDK against the server, every operation of /openapi.json (${process.env.E2E_MODE} mode)`, () => {
  let doc: any;
  let validator: DocumentValidator;
  let operations: DocOperation[];
  let ctx: Ctx;
  beforeAll(async () => {
    doc = (await request(`${baseUrl()}/openapi.json`)).body;
    validator = new DocumentValidator(doc);
    operations = documentOperations(doc);
    const tenant = await createTestTenant('REST SDK');
    ctx = { tenant, ids: await createResources(tenant), api: createRestClient({ baseUrl: baseUrl(), tenant: tenant.tenantId, apiKey: tenant.apiKey }) };
  }, 60_000);

  it('has a case for every operation the document lists, and none for one it does not', () => {
    const documented = operations.map((o) => o.key).sort();
    expect(Object.keys(CASES).sort()).toEqual(documented);
  });

  it.each(Object.keys(CASES))('%s answers its documented success, its body as the document says', async (key) => {
    const { op } = operations.find((o) => o.key === key)!;
    const { response, body } = await CASES[key](ctx);
    expect({ status: response.status, problems: responseProblems(validator, op, response, body, key.startsWith('HEAD ')) }).toEqual({ status: successStatus(op), problems: [] });
  }, 30_000);

  // The document's nulls and limits are the server's: an optional field of an Update*Input body that
  // the document makes nullable takes null (200), one it does not is a 422 at that field.
  it('takes null for each optional Update*Input field the document makes nullable, and refuses it for each other', async () => {
    const disagreements: string[] = [];
    for (const { key, path, method, op } of operations) {
      const name: string | undefined = op.requestBody?.content?.['application/json']?.schema?.$ref?.split('/').pop();
      if (!name || !/^Update.+Input$/.test(name)) continue;
      const schema = doc.components.schemas[name];
      const pathIds = Object.fromEntries([...path.matchAll(/\{([^}]+)\}/g)].map(([, param]) => [param, ctx.ids[param]]));
      for (const [field, property] of Object.entries(schema.properties).filter(([f]) => !schema.required?.includes(f))) {
        const nullable = validator.allowsNull(property);
        // Through the SDK, past its types where they (rightly) forbid the null.
        const sdk = ctx.api as unknown as Record<string, (url: string, init: object) => Promise<{ response: Response; data?: unknown; error?: any }>>;
        const { response, data, error } = await sdk[method.toUpperCase()](path, { params: { path: pathIds }, body: { [field]: null } });
        const refusedHere = response.status === 422 && error?.detail?.some((e: any) => e.loc.join('.') === `body.${field}`);
        if (nullable && response.status !== successStatus(op)) disagreements.push(`${key} ${field}: documented nullable, answered ${response.status} ${JSON.stringify(error)}`);
        else if (nullable) disagreements.push(...responseProblems(validator, op, response, data).map((p) => `${key} ${field}: ${p}`));
        else if (!refusedHere) disagreements.push(`${key} ${field}: documented not nullable, answered ${response.status}`);
      }
    }
    expect(disagreements).toEqual([]);
  }, 60_000);

  it("holds a widget's position to the document's minimums: one below is a 422 at that field, the minimum itself is taken", async () => {
    const { properties } = doc.components.schemas.WidgetPositionInput;
    const put = (position: Record<string, number>) =>
      ctx.api.PUT('/analytics/widgets/{widget_id}', { params: { path: { widget_id: ctx.ids.widget_id } }, body: { position: position as { x: number; y: number; w: number; h: number } } });
    const least = Object.fromEntries(Object.entries(properties).map(([key, p]: [string, any]) => [key, p.minimum]));
    expect(Object.values(least).every((m) => typeof m === 'number')).toBe(true);
    for (const key of Object.keys(least)) {
      const below = await put({ ...least, [key]: least[key] - 1 });
      expect({ key, status: below.response.status, locs: (below.error?.detail as { loc: unknown[] }[] | undefined)?.map((e) => e.loc) }).toEqual({ key, status: 422, locs: [['body', 'position', key]] });
    }
    const taken = await put(least);
    expect({ status: taken.response.status, position: taken.data?.position }).toEqual({ status: 200, position: least });
  });
});
