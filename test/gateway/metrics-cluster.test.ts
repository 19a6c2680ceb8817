import http from 'node:http';
import { join } from 'node:path';
import { suiteWorkDir } from '../utils/work-dir';
import { watchOutput } from '../utils/watch-output';
import { spawnChild, START_LIMIT_MS } from '../utils/children';
import { parseMetrics, sampleValue } from '../utils/metrics-text';

const MAIN = join(__dirname, '../../dist/gateway/main.js');
const OPERATOR_TOKEN = 'metrics-cluster-operator-token';

/** One request on a connection of its own, so the cluster hands successive requests to different workers. */
function fresh(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; requestId: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? 'GET', headers: init.headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, requestId: String(res.headers['x-request-id']), text }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

describe('metrics under WEB_CONCURRENCY=2: one scrape of the primary sums both workers', () => {
  const work = suiteWorkDir('hpp-metrics-cluster-');

  it('counts known traffic exactly, whichever worker served it, on METRICS_PORT and on a worker\'s /metrics', async () => {
    const child = spawnChild(process.execPath, [MAIN], {
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: '0',
        METRICS_PORT: '0',
        DATA_DIR: join(work(), 'data'),
        LOG_LEVEL: 'info',
        WEB_CONCURRENCY: '2',
        OPERATOR_TOKEN,
        DEMO_TENANT: '0',
        RATE_LIMIT_PER_WINDOW: '7',
        WEBHOOK_DISPATCHER: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { exited, waitFor, servedBy } = watchOutput(child);

    try {
      const metricsUrl = (await waitFor(/"url":"(http:\/\/127\.0\.0\.1:\d+\/metrics)"/))[1];
      const url = (await waitFor(/is listening on (http:\/\/127\.0\.0\.1:\d+)/))[1];
      await waitFor(/"msg":"all workers listening"/);
      const operator = { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' };
      const created = await fresh(`${url}/admin/tenants`, { method: 'POST', headers: operator, body: JSON.stringify({ name: 'Metrics Clinic' }) });
      expect(created.status).toBe(201);
      const { tenant, apiKey } = JSON.parse(created.text);
      const headers = { TENANT: tenant.id, 'API-KEY': apiKey };

      // 7 within the tenant's budget, 2 over it, 3 to routes that do not exist.
      const answers = [];
      for (let i = 0; i < 9; i++) answers.push(await fresh(`${url}/tenant/public`, { headers }));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 429, 429]);
      const unknown = [];
      for (let i = 0; i < 3; i++) unknown.push(await fresh(`${url}/no-such-route/${i}`));
      expect(unknown.map((a) => a.status)).toEqual([404, 404, 404]);
      // Both workers served some of it, so a scrape of one worker alone could not show these totals.
      expect((await servedBy([...answers, ...unknown])).size).toBe(2);

      const scraped = await fresh(metricsUrl);
      expect(scraped.status).toBe(200);
      const samples = parseMetrics(scraped.text);
      expect(sampleValue(samples, 'hpp_workers_reporting')).toBe(2);
      expect(sampleValue(samples, 'hpp_http_requests_total', { method: 'GET', route: '/tenant/public', status: '200' })).toBe(7);
      expect(sampleValue(samples, 'hpp_http_requests_total', { method: 'GET', route: '/tenant/public', status: '429' })).toBe(2);
      expect(sampleValue(samples, 'hpp_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(3);
      expect(sampleValue(samples, 'hpp_http_requests_total', { method: 'POST', route: '/admin/tenants', status: '201' })).toBe(1);
      expect(sampleValue(samples, 'hpp_http_request_duration_seconds_count', { method: 'GET', route: '/tenant/public' })).toBe(9);
      expect(sampleValue(samples, 'hpp_http_request_duration_seconds_bucket', { method: 'GET', route: '/tenant/public', le: '+Inf' })).toBe(9);
      expect(sampleValue(samples, 'hpp_rate_limit_refusals_total', { policy: 'tenant' })).toBe(2);
      // No raw path (ids, the unknown routes' numbers) and no tenant id becomes a label.
      expect(scraped.text).not.toContain('no-such-route');
      expect(scraped.text).not.toContain(tenant.id);
      // Read from the database by the first worker only, so not doubled; Node's own metrics merged.
      expect(samples.filter((s) => s.name === 'hpp_webhook_queue_depth')).toHaveLength(1);
      expect(Number.isFinite(sampleValue(samples, 'hpp_emails_due'))).toBe(true);
      expect(samples.some((s) => s.name === 'nodejs_eventloop_lag_max_seconds')).toBe(true);
      expect(sampleValue(samples, 'hpp_db_pool_connections', { pool: 'tenant', state: 'free' }) + sampleValue(samples, 'hpp_db_pool_connections', { pool: 'tenant', state: 'used' })).toBeGreaterThanOrEqual(2);

      // The operator's /metrics on the API port, whichever worker takes it, answers the same sums.
      for (let i = 0; i < 2; i++) {
        const viaWorker = await fresh(`${url}/metrics`, { headers: operator });
        expect(viaWorker.status).toBe(200);
        const again = parseMetrics(viaWorker.text);
        expect(sampleValue(again, 'hpp_workers_reporting')).toBe(2);
        expect(sampleValue(again, 'hpp_http_requests_total', { method: 'GET', route: '/tenant/public', status: '200' })).toBe(7);
        expect(sampleValue(again, 'hpp_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(3);
      }
      expect((await fresh(`${url}/metrics`)).status).toBe(401);
      expect((await fresh(metricsUrl.replace(/\/metrics$/, '/other'))).status).toBe(404);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    expect(await exited).toBe(0);
  }, START_LIMIT_MS + 120_000);
});
