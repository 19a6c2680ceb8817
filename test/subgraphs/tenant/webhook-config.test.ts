import { WEBHOOK_EVENTS } from '../../../subgraphs/tenant/webhook-events';
import type { TenantDeps } from '../../../subgraphs/tenant';
import { issuesOf, startTenantKit, type TenantSubgraphKit } from './subgraph-kit';

const UPDATE = `mutation($i: WebhookConfigInput!) { updateWebhookConfig(input: $i) { id webhookConfig { url enabled events secret secretHint createdAt updatedAt } } }`;
const READ = '{ webhookConfig { url enabled events secret secretHint createdAt updatedAt } }';

describe('webhook configuration in the subgraph (real PostgreSQL)', () => {
  let kit: TenantSubgraphKit;
  beforeAll(async () => {
    kit = await startTenantKit();
  });
  afterAll(() => kit.close());

  it('answers an unconfigured webhook before the first save', async () => {
    const tenant = await kit.tenant();
    expect((await kit.run(tenant, READ)).data.webhookConfig).toEqual({ url: null, enabled: false, events: [], secret: null, secretHint: null, createdAt: null, updatedAt: null });
  });

  it('creates the secret on first save and shows it whole only then; rotation replaces it once more', async () => {
    const tenant = await kit.tenant();
    const first = (await kit.run(tenant, UPDATE, { i: { url: 'https://hooks.example.com/in' } })).data.updateWebhookConfig;
    expect(first.id).toBe(tenant);
    const secret: string = first.webhookConfig.secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    expect(first.webhookConfig).toMatchObject({ url: 'https://hooks.example.com/in', enabled: true, events: [...WEBHOOK_EVENTS], secretHint: `whsec_…${secret.slice(-4)}` });

    const read = (await kit.run(tenant, READ)).data.webhookConfig;
    expect(read.secret).toBeNull();
    expect(read.secretHint).toBe(`whsec_…${secret.slice(-4)}`);
    const again = (await kit.run(tenant, UPDATE, { i: { events: ['tenant.updated', 'tenant.updated'] } })).data.updateWebhookConfig.webhookConfig;
    expect(again).toMatchObject({ secret: null, events: ['tenant.updated'], secretHint: read.secretHint });
    const viaTenant = (await kit.run(tenant, '{ tenant { webhookConfig { secret secretHint } } }')).data.tenant.webhookConfig;
    expect(viaTenant).toEqual({ secret: null, secretHint: read.secretHint });

    const rotated = (await kit.run(tenant, UPDATE, { i: { rotateSecret: true } })).data.updateWebhookConfig.webhookConfig;
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);
    expect(rotated.secretHint).toBe(`whsec_…${rotated.secret.slice(-4)}`);
    expect((await kit.run(tenant, READ)).data.webhookConfig.secret).toBeNull();
  });

  it('validates URL safety, the event catalogue and an enabled endpoint needing a URL, writing nothing', async () => {
    const tenant = await kit.tenant();
    const allowed = WEBHOOK_EVENTS.join(', ');
    const refused = await kit.run(tenant, UPDATE, { i: { url: 'http://hooks.example.com', events: ['tenant.updated', 'patient.deleted'] } });
    expect(issuesOf(refused)).toEqual([
      { type: 'value_error', loc: ['input', 'url'], msg: 'Value error, url must use https', input: 'http://hooks.example.com', ctx: { error: 'url must use https' } },
      {
        type: 'value_error',
        loc: ['input', 'events', 1],
        msg: `Value error, unknown event 'patient.deleted'; allowed: ${allowed}`,
        input: 'patient.deleted',
        ctx: { error: `unknown event 'patient.deleted'; allowed: ${allowed}` },
      },
    ]);
    expect(issuesOf(await kit.run(tenant, UPDATE, { i: { url: 'https://192.168.0.10/hook' } }))[0]).toMatchObject({
      loc: ['input', 'url'],
      msg: 'Value error, url must point to a globally reachable address (not a private, loopback, link-local or other special-purpose one)',
    });
    expect(issuesOf(await kit.run(tenant, UPDATE, { i: { enabled: true } }))[0]).toMatchObject({ loc: ['input', 'url'], msg: 'Value error, url is required while the webhook is enabled' });
    expect((await kit.run(tenant, READ)).data.webhookConfig.createdAt).toBeNull();
    // Disabled without a URL is a valid configuration (the secret exists from then on).
    const disabled = (await kit.run(tenant, UPDATE, { i: { enabled: false, events: [] } })).data.updateWebhookConfig.webhookConfig;
    expect(disabled).toMatchObject({ url: null, enabled: false, events: [], secret: expect.stringMatching(/^whsec_/) });
  });

  it('takes http and internal hosts when ALLOW_HTTP_WEBHOOKS=1', async () => {
    const tenant = await kit.tenant();
    // The running subgraph's switch, as configure() built it from ALLOW_HTTP_WEBHOOKS=1.
    const deps = kit.subgraph.deps as TenantDeps;
    deps.allowInsecureWebhooks = true;
    try {
      const result = await kit.run(tenant, UPDATE, { i: { url: 'http://127.0.0.1:9000/hook' } });
      expect(result.errors).toBeUndefined();
      expect(result.data.updateWebhookConfig.webhookConfig.url).toBe('http://127.0.0.1:9000/hook');
    } finally {
      deps.allowInsecureWebhooks = false;
    }
  });

  it('keeps each tenant’s configuration to itself', async () => {
    const [a, b] = [await kit.tenant(), await kit.tenant()];
    await kit.run(a, UPDATE, { i: { url: 'https://a.example.com/hook' } });
    expect((await kit.run(b, READ)).data.webhookConfig.url).toBeNull();
  });
});
