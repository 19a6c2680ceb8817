import { createTestTenant, request } from '../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';

describe('per-tenant rate limit (fixed window)', () => {
  let server: InProcessApp;
  const LIMIT = 5;

  beforeAll(async () => {
    server = await startInProcessApp({ RATE_LIMIT_PER_WINDOW: String(LIMIT), RATE_LIMIT_WINDOW_SECONDS: '60', RATE_LIMIT_AUTH_FAILURES_PER_WINDOW: '3' });
  });
  afterAll(() => server.close());

  it('counts down, then answers 429 with Retry-After; another tenant is unaffected', async () => {
    const [a, b] = [await createTestTenant('A', server.url), await createTestTenant('B', server.url)];
    const remaining: number[] = [];
    for (let i = 0; i < LIMIT; i += 1) {
      const res = await a.get('/tenant/public');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
      remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);

    const over = await a.get('/tenant/public');
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ detail: 'Rate limit exceeded' });
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(over.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
    expect(over.headers.get('ratelimit')).toMatch(/^"tenant";r=0;t=\d+$/);

    // GraphQL draws on the same budget.
    expect((await a.graphql('{ tenant { id } }')).status).toBe(429);

    const other = await b.get('/tenant/public');
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 1));
  });

  it('limits failed authentications per client address without touching the tenant budget', async () => {
    const tenant = await createTestTenant('C', server.url);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      statuses.push((await request(`${server.url}/tenant/public`, { headers: { TENANT: tenant.tenantId, 'API-KEY': 'guess' } })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const good = await tenant.get('/tenant/public');
    expect(good.status).toBe(200);
    expect(good.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 1));
  });
});
