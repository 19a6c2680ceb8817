import { join } from 'node:path';
import { admin, request } from '../utils/e2e';
import { watchOutput } from '../utils/watch-output';
import { spawnChild, START_LIMIT_MS } from '../utils/children';

const MAIN = join(__dirname, '../../dist/gateway/main.js');
const OPERATOR_TOKEN = 'lease-cluster-operator-token';

/**
 * Leased budgets in a real cluster: two workers take slices of one tenant's window from the
 * primary over IPC (RateLimiterCluster) and spend them locally. A tenant sending more than its
 * limit gets at most the limit through, and loses at most a slice per worker to leasing.
 */
describe('WEB_CONCURRENCY=2 with a limit large enough to lease (1,000 a window, slices of 10)', () => {
  it('admits between limit - 2 x (slice - 1) and the limit, however the requests spread over the workers', async () => {
    const limit = 1_000;
    const child = spawnChild(process.execPath, [MAIN], {
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', WEB_CONCURRENCY: '2', OPERATOR_TOKEN, DEMO_TENANT: '0', RATE_LIMIT_PER_WINDOW: String(limit), WEBHOOK_DISPATCHER: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { exited, waitFor } = watchOutput(child);
    try {
      const url = (await waitFor(/is listening on (http:\/\/127\.0\.0\.1:\d+)/))[1];
      const created = await admin('/tenants', { method: 'POST', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` }, body: JSON.stringify({ name: 'Lease Clinic' }) }, url);
      expect(created.status).toBe(201);
      const headers = { TENANT: created.body.tenant.id, 'API-KEY': created.body.apiKey };
      const statuses: number[] = [];
      // 20 clients at a time, 1,100 requests in all: both workers serve, and leases are asked for concurrently.
      for (let sent = 0; sent < 1_100; sent += 20) {
        const batch = await Promise.all(Array.from({ length: 20 }, () => request(`${url}/tenant/public`, { headers })));
        statuses.push(...batch.map((r) => r.status));
      }
      const admitted = statuses.filter((s) => s === 200).length;
      expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
      expect(admitted).toBeLessThanOrEqual(limit);
      expect(admitted).toBeGreaterThanOrEqual(limit - 2 * 9);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    // A cluster start (primary, two workers, migrations) and 1,100 requests: more than jest's default on a loaded machine.
  }, START_LIMIT_MS + 120_000);
});
