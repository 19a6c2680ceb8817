import { startInProcessApp, type InProcessApp } from '../utils/in-process';
import { request, type HttpResult } from '../utils/e2e';

/**
 * Issue 31, finding 13: a tenant could have gift card notes e-mailed to any address, without
 * bound. Each tenant now queues at most NOTIFICATION_DAILY_LIMIT e-mails in any 24 hours, counted
 * from the database under the tenant's lock; past it the activation that would send one is a 429
 * RATE_LIMITED with Retry-After and is undone. This app runs with a limit of 3.
 */
const LIMIT = 3;

describe('per-tenant cap on notification e-mails', () => {
  let app: InProcessApp;
  let tenants: { headers: Record<string, string> }[];

  const call = (headers: Record<string, string>, method: string, path: string, body?: unknown): Promise<HttpResult> =>
    request(`${app.url}${path}`, { method, headers: { ...headers, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const graphql = (headers: Record<string, string>, query: string, variables?: Record<string, unknown>) => call(headers, 'POST', '/graphql', { query, variables });
  const issue = async (headers: Record<string, string>): Promise<string> => {
    const res = await graphql(headers, 'mutation($i: IssueGiftCardInput!) { issueGiftCard(input: $i) { id } }', { i: { initialValueCents: 5000, recipientPatientEmail: 'someone@example.com', recipientNote: 'Any text at all' } });
    expect(res.body.errors).toBeUndefined();
    return res.body.data.issueGiftCard.id;
  };
  const activate = (headers: Record<string, string>, id: string, body: unknown = {}) => call(headers, 'POST', `/billing/gift-cards/issued/${id}/activate`, body);
  const status = async (headers: Record<string, string>, id: string) => (await graphql(headers, 'query($id: ID!) { issuedGiftCard(id: $id) { status } }', { id })).body.data.issuedGiftCard.status;

  beforeAll(async () => {
    app = await startInProcessApp({ NOTIFICATION_DAILY_LIMIT: String(LIMIT) });
    tenants = [];
    for (const name of ['Mailer A', 'Mailer B']) {
      const res = await request(`${app.url}/admin/tenants`, { method: 'POST', headers: { authorization: `Bearer ${process.env.E2E_OPERATOR_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
      expect(res.status).toBe(201);
      tenants.push({ headers: { TENANT: res.body.tenant.id, 'API-KEY': res.body.apiKey } });
    }
  });
  afterAll(() => app?.close());

  it('lets exactly LIMIT of many concurrent activations e-mail; the rest are 429 with Retry-After and stay PENDING', async () => {
    const [a] = tenants;
    const ids = await Promise.all(Array.from({ length: LIMIT + 3 }, () => issue(a.headers)));
    const answers = await Promise.all(ids.map((id) => activate(a.headers, id)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(LIMIT);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(3);
    for (const res of refused) {
      expect(res.body).toEqual({ detail: expect.stringContaining(`at most ${LIMIT} e-mails per tenant in 24 hours`) });
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(86_400);
    }
    const statuses = await Promise.all(ids.map((id) => status(a.headers, id)));
    expect(statuses.filter((s) => s === 'ACTIVE')).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 'PENDING')).toHaveLength(3);

    // The same refusal on GraphQL; without an e-mail the card activates.
    const pending = ids[statuses.indexOf('PENDING')];
    const viaGraphql = await graphql(a.headers, 'mutation($id: ID!) { activateGiftCard(id: $id) { status } }', { id: pending });
    expect(viaGraphql.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
    const silent = await activate(a.headers, pending, { sendNotification: false });
    expect(silent.status).toBe(200);
    expect(silent.body.status).toBe('ACTIVE');
  });

  it("is per tenant: another tenant's e-mails are not held by the first one's cap", async () => {
    const [, b] = tenants;
    const id = await issue(b.headers);
    expect((await activate(b.headers, id)).status).toBe(200);
  });
});
