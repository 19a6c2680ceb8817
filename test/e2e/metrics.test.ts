import { baseUrl, createTestTenant, request } from '../utils/e2e';
import { parseMetrics, sampleValue } from '../utils/metrics-text';

/** The operator's scrape of the API port: every worker's metrics when the server runs several. */
async function scrape() {
  const answer = await request(`${baseUrl()}/metrics`, { headers: { authorization: `Bearer ${process.env.E2E_OPERATOR_TOKEN}` } });
  expect(answer.status).toBe(200);
  return { text: answer.text, samples: parseMetrics(answer.text) };
}

describe('/metrics on the API port', () => {
  it('is the operator\'s: 401 without the token', async () => {
    expect((await request(`${baseUrl()}/metrics`)).status).toBe(401);
    expect((await request(`${baseUrl()}/metrics`, { headers: { authorization: 'Bearer wrong-token-wrong-token' } })).status).toBe(401);
  });

  it('counts a GraphQL operation by its name, whichever worker ran it, and never labels a tenant', async () => {
    const tenant = await createTestTenant('Metrics E2E Clinic');
    // A name no other test uses: other suites share this server, so only its series is exact.
    const name = `MetricsProbe${Date.now()}`;
    for (let i = 0; i < 5; i++) {
      // A connection of its own each: under WEB_CONCURRENCY the cluster spreads them over the workers.
      const answer = await request(`${baseUrl()}/graphql`, {
        method: 'POST',
        headers: { ...tenant.headers, 'content-type': 'application/json', connection: 'close' },
        body: JSON.stringify({ query: `query ${name} { tenant { id } }` }),
      });
      expect(answer.status).toBe(200);
    }
    const { text, samples } = await scrape();
    expect(sampleValue(samples, 'hpp_graphql_operations_total', { operation: name, type: 'query', outcome: 'ok' })).toBe(5);
    expect(sampleValue(samples, 'hpp_graphql_operation_duration_seconds_count', { operation: name, type: 'query' })).toBe(5);
    expect(sampleValue(samples, 'hpp_http_requests_total', { method: 'POST', route: '/graphql', status: '200' })).toBeGreaterThanOrEqual(5);
    // The e2e server is ready once its first worker is (test/gateway/metrics-cluster.test.ts waits for both).
    const reporting = sampleValue(samples, 'hpp_workers_reporting');
    expect(reporting).toBeGreaterThanOrEqual(1);
    expect(reporting).toBeLessThanOrEqual(Number(process.env.WEB_CONCURRENCY ?? 1));
    expect(text).not.toContain(tenant.tenantId);
    expect(samples.some((s) => s.name === 'hpp_webhook_queue_depth' && Number.isFinite(s.value))).toBe(true);
    expect(samples.some((s) => s.name === 'hpp_emails_due')).toBe(true);
    expect(samples.some((s) => s.name === 'nodejs_eventloop_lag_p99_seconds')).toBe(true);
  });
});
