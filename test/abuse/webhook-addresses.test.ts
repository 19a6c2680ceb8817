/**
 * Abuse suite, webhook addresses (issue 31, finding 8): a host's own address can sit in a
 * special-purpose range (documentation, translation, discard), and a webhook pointed there made
 * the delivery log's `network error: <code>` a port scanner. Saving such a URL is a 422 naming the
 * field, over REST and GraphQL; globally reachable addresses are still accepted.
 */
import { createTestTenant, request, type TestTenant } from '../utils/e2e';
import { baseUrl } from '../utils/e2e';

const NOT_GLOBAL = 'url must point to a globally reachable address (not a private, loopback, link-local or other special-purpose one)';

/** One address from each range the issue found accepted. */
const SPECIAL_PURPOSE = [
  'https://192.0.2.10/hook',
  'https://198.51.100.20:8443/hook',
  'https://203.0.113.30/hook',
  'https://[2001:db8::1]/hook',
  'https://[::ffff:0:c000:20a]/hook',
  'https://[64:ff9b:1::c000:20a]/hook',
  'https://[100::1]/hook',
];

const put = (tenant: TestTenant, body: unknown) =>
  request(`${baseUrl()}/tenant/webhook-config`, { method: 'PUT', headers: { ...tenant.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('webhook URLs: only globally reachable addresses are saved', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTestTenant('Address Clinic');
  });

  it.each(SPECIAL_PURPOSE)('REST refuses %s with a 422 on body.url and saves nothing', async (url) => {
    const res = await put(tenant, { url });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [{ type: 'value_error', loc: ['body', 'url'], msg: `Value error, ${NOT_GLOBAL}`, input: url, ctx: { error: NOT_GLOBAL } }] });
    expect((await tenant.get('/tenant/webhook-config')).body.url).not.toBe(url);
  });

  it('GraphQL refuses them too', async () => {
    for (const url of SPECIAL_PURPOSE) {
      const res = await tenant.graphql('mutation($i: WebhookConfigInput!) { updateWebhookConfig(input: $i) { id } }', { i: { url } });
      expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    }
  });

  it('accepts public addresses next to those ranges', async () => {
    for (const url of ['https://198.51.101.1/hook', 'https://[2606:4700:4700::1111]/hook', 'https://[::ffff:808:808]/hook', 'https://hooks.example.com/hook']) {
      const res = await put(tenant, { url });
      expect(res.status).toBe(200);
      expect(res.body.webhookConfig.url).toBe(url);
    }
  });
});
