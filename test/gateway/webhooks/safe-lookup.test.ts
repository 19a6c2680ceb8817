import { publicOnlyLookup } from '../../../subgraphs/tenant/webhooks/safe-lookup';
import { postWebhook } from '../../../subgraphs/tenant/webhooks/http-post';

const lookup = (host: string) =>
  new Promise<{ error: (Error & { code?: string }) | null; address: string }>((resolve) =>
    publicOnlyLookup(host, {}, (error, address) => resolve({ error: error as never, address: address as string })),
  );

describe('webhook connections only reach public addresses', () => {
  const saved = process.env.ALLOW_HTTP_WEBHOOKS;
  beforeEach(() => delete process.env.ALLOW_HTTP_WEBHOOKS);
  afterAll(() => (saved === undefined ? delete process.env.ALLOW_HTTP_WEBHOOKS : (process.env.ALLOW_HTTP_WEBHOOKS = saved)));

  it('refuses a name that resolves to loopback', async () => {
    const { error } = await lookup('localhost');
    expect(error?.code).toBe('EREFUSED_INTERNAL');
  });

  it('refuses IP literals in internal ranges before connecting', async () => {
    await expect(postWebhook('http://127.0.0.1:9/hook', {}, '{}', 1000)).rejects.toMatchObject({ code: 'EREFUSED_INTERNAL' });
    await expect(postWebhook('http://[::1]:9/hook', {}, '{}', 1000)).rejects.toMatchObject({ code: 'EREFUSED_INTERNAL' });
    await expect(postWebhook('http://169.254.169.254/latest', {}, '{}', 1000)).rejects.toMatchObject({ code: 'EREFUSED_INTERNAL' });
  });

  it('lets development allow them with ALLOW_HTTP_WEBHOOKS=1', async () => {
    process.env.ALLOW_HTTP_WEBHOOKS = '1';
    const { error, address } = await lookup('localhost');
    expect(error).toBeNull();
    expect(address).toMatch(/^(127\.0\.0\.1|::1)$/);
  });
});
