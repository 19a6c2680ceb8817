import { publicOnlyLookup } from '../../../../../subgraphs/tenant/webhooks/safe-lookup';
import { postWebhook } from '../../../../../subgraphs/tenant/webhooks/http-post';

const lookup = (host: string) =>
  new Promise<{ error: (Error & { code?: string }) | null; address: string }>((resolve) =>
    publicOnlyLookup(host, {}, (error, address) => resolve({ error: error as never, address: address as string })),
  );

describe('webhook connections only reach public addresses', () => {
  const publicOnly = { timeoutMs: 1000, allowInternal: false };
  it('refuses a name that resolves to loopback', async () => {
    const { error } = await lookup('localhost');
    expect(error?.code).toBe('EREFUSED_INTERNAL');
  });

  it('refuses IP literals in internal ranges before connecting', async () => {
    await expect(postWebhook('http://127.0.0.1:9/hook', {}, '{}', publicOnly)).rejects.toMatchObject({ code: 'EREFUSED_INTERNAL' });
    await expect(postWebhook('http://[::1]:9/hook', {}, '{}', publicOnly)).rejects.toMatchObject({ code: 'EREFUSED_INTERNAL' });
    await expect(postWebhook('http://169.254.169.254/latest', {}, '{}', publicOnly)).rejects.toMatchObject({ code: 'EREFUSED_INTERNAL' });
    // Special-purpose ranges a host's own address can sit in (issue 31): never connected to, so never probed.
    for (const url of ['http://192.0.2.1:9/', 'http://198.51.100.1:9/', 'http://203.0.113.1:9/', 'http://[2001:db8::1]:9/', 'http://[::ffff:0:c000:201]:9/', 'http://[64:ff9b:1::1]:9/', 'http://[100::1]:9/']) {
      await expect(postWebhook(url, {}, '{}', publicOnly)).rejects.toMatchObject({ code: 'EREFUSED_INTERNAL' });
    }
  });

  it('lets development connect to them with ALLOW_HTTP_WEBHOOKS=1 (allowInternal): the connection is tried, not refused', async () => {
    await expect(postWebhook('http://127.0.0.1:9/hook', {}, '{}', { timeoutMs: 1000, allowInternal: true })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
