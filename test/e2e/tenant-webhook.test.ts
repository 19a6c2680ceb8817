import { baseUrl, createTestTenant, request, type TestTenant } from '../utils/e2e';

const EVENTS = [
  'tenant.updated',
  'webhook_config.updated',
  'payment_method.created',
  'gift_card.issued',
  'gift_card.activated',
  'member.payment_succeeded',
  'member.payment_failed',
  'campaign.updated',
  'opportunity.created',
  'dashboard.created',
  'dashboard.deleted',
];

const put = (tenant: TestTenant, body: unknown) =>
  request(`${baseUrl()}/tenant/webhook-config`, { method: 'PUT', headers: { ...tenant.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });

const urlError = (reason: string, input: unknown) => ({ type: 'value_error', loc: ['body', 'url'], msg: `Value error, ${reason}`, input, ctx: { error: reason } });

const NOT_GLOBAL = 'url must point to a globally reachable address (not a private, loopback, link-local or other special-purpose one)';

describe(`webhook configuration over REST (${process.env.E2E_MODE} mode)`, () => {
  it('GET answers the unconfigured shape before anything is saved', async () => {
    const tenant = await createTestTenant();
    const res = await tenant.get('/tenant/webhook-config');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: null, enabled: false, events: [], secretHint: null, createdAt: null, updatedAt: null, disabledAt: null, disabledReason: null });
  });

  it('PUT answers the tenant with its config; the secret shows whole once, then only as a hint, until rotated', async () => {
    const tenant = await createTestTenant('Hooked Clinic');
    const privateRecord = (await tenant.get('/tenant/private')).body;
    const first = await put(tenant, { url: 'https://hooks.example.com/platform', events: ['tenant.updated', 'gift_card.activated'] });
    expect(first.status).toBe(200);
    const { webhookConfig, ...tenantFields } = first.body;
    expect(tenantFields).toEqual(privateRecord);
    const secret: string = webhookConfig.secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const hint = `whsec_…${secret.slice(-4)}`;
    expect(webhookConfig).toEqual({
      url: 'https://hooks.example.com/platform',
      enabled: true,
      events: ['tenant.updated', 'gift_card.activated'],
      secret,
      secretHint: hint,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      disabledAt: null,
      disabledReason: null,
    });

    const read = await tenant.get('/tenant/webhook-config');
    expect(read.body).toEqual({ url: 'https://hooks.example.com/platform', enabled: true, events: ['tenant.updated', 'gift_card.activated'], secretHint: hint, createdAt: webhookConfig.createdAt, updatedAt: webhookConfig.updatedAt, disabledAt: null, disabledReason: null });
    expect(read.text).not.toContain(secret.slice(6));

    const disabled = await put(tenant, { enabled: false });
    expect(disabled.body.webhookConfig).toMatchObject({ enabled: false, secret: null, secretHint: hint, url: 'https://hooks.example.com/platform' });
    expect(disabled.text).not.toContain(secret.slice(6));

    const rotated = await put(tenant, { rotateSecret: true });
    const newSecret: string = rotated.body.webhookConfig.secret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    expect((await tenant.get('/tenant/webhook-config')).body.secretHint).toBe(`whsec_…${newSecret.slice(-4)}`);
    expect((await put(tenant, {})).body.webhookConfig.secret).toBeNull();
  });

  it('a new configuration without events subscribes to the whole catalogue', async () => {
    const tenant = await createTestTenant();
    expect((await put(tenant, { url: 'https://hooks.example.com/all' })).body.webhookConfig.events).toEqual(EVENTS);
  });

  it.each([
    [{ url: 'http://hooks.example.com/in' }, urlError('url must use https', 'http://hooks.example.com/in')],
    [{ url: 'https://10.0.0.5/in' }, urlError(NOT_GLOBAL, 'https://10.0.0.5/in')],
    [{ url: 'https://172.20.1.1/in' }, urlError(NOT_GLOBAL, 'https://172.20.1.1/in')],
    [{ url: 'https://192.168.1.1/in' }, urlError(NOT_GLOBAL, 'https://192.168.1.1/in')],
    [{ url: 'https://127.0.0.1:8443/in' }, urlError(NOT_GLOBAL, 'https://127.0.0.1:8443/in')],
    [{ url: 'https://localhost/in' }, urlError(NOT_GLOBAL, 'https://localhost/in')],
    [{ url: 'https://169.254.169.254/latest' }, urlError(NOT_GLOBAL, 'https://169.254.169.254/latest')],
    [{ url: 'https://[::1]/in' }, urlError(NOT_GLOBAL, 'https://[::1]/in')],
    [{ url: 'https://[fd00::1]/in' }, urlError(NOT_GLOBAL, 'https://[fd00::1]/in')],
    [{ url: 'https://[fe80::1]/in' }, urlError(NOT_GLOBAL, 'https://[fe80::1]/in')],
    [{ url: 'hooks.example.com' }, urlError('url must be an absolute https URL', 'hooks.example.com')],
    [{ enabled: true }, urlError('url is required while the webhook is enabled', null)],
    [{ url: 'https://hooks.example.com', secret: 'mine' }, { type: 'extra_forbidden', loc: ['body', 'secret'], msg: 'Extra inputs are not permitted', input: 'mine' }],
    [{ url: 'https://hooks.example.com', events: 'tenant.updated' }, { type: 'list_type', loc: ['body', 'events'], msg: 'Input should be a valid list', input: 'tenant.updated' }],
  ])('refuses %j and saves nothing', async (body, issue) => {
    const tenant = await createTestTenant();
    const res = await put(tenant, body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [issue] });
    expect((await tenant.get('/tenant/webhook-config')).body.createdAt).toBeNull();
  });

  it('refuses unknown event names, listing the allowed ones', async () => {
    const tenant = await createTestTenant();
    const res = await put(tenant, { url: 'https://hooks.example.com', events: ['tenant.updated', 'patient.deleted'] });
    const reason = `unknown event 'patient.deleted'; allowed: ${EVENTS.join(', ')}`;
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [{ type: 'value_error', loc: ['body', 'events', 1], msg: `Value error, ${reason}`, input: 'patient.deleted', ctx: { error: reason } }] });
  });

  it("keeps each tenant's configuration to itself, and GraphQL answers the same", async () => {
    const [a, b] = await Promise.all([createTestTenant(), createTestTenant()]);
    await put(a, { url: 'https://a.example.com/hook' });
    expect((await b.get('/tenant/webhook-config')).body.url).toBeNull();
    const gql = await a.graphql('{ webhookConfig { url enabled events secretHint createdAt updatedAt disabledAt disabledReason } }');
    expect(gql.body.data.webhookConfig).toEqual((await a.get('/tenant/webhook-config')).body);
  });
});
