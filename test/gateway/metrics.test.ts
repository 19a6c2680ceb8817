import { randomUUID } from 'node:crypto';
import { ConfigError, loadConfig } from '../../gateway/config';
import { createTestTenant, request } from '../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';
import { parseMetrics, sampleValue } from '../utils/metrics-text';

const TOKEN = process.env.E2E_OPERATOR_TOKEN!;

describe('/metrics in a single process, behind the operator token', () => {
  let server: InProcessApp;
  beforeAll(async () => {
    server = await startInProcessApp({ RATE_LIMIT_PER_WINDOW: '5' });
  });
  afterAll(() => server?.close());

  const scrape = async () => {
    const answer = await request(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseMetrics(answer.text);
  };

  it('refuses a missing or wrong token like /admin', async () => {
    expect((await request(`${server.url}/metrics`)).status).toBe(401);
    const wrong = await request(`${server.url}/metrics`, { headers: { authorization: 'Bearer not-the-operator-token' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ detail: 'Invalid operator token' });
  });

  it('counts requests per route and status, GraphQL operations per name and outcome, refusals and failed keys', async () => {
    const tenant = await createTestTenant('Metrics Clinic', server.url);
    const before = await scrape();
    const graphql = (body: object) => request(`${server.url}/graphql`, { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });

    // Five points, one per GraphQL request (the refused one too); the public page is then over the budget.
    expect((await graphql({ query: 'query MetricsTenant { tenant { id } }' })).status).toBe(200);
    expect((await graphql({ query: 'query MetricsTenant { tenant { id } }' })).status).toBe(200);
    expect((await graphql({ query: '{ tenant { id } }' })).status).toBe(200);
    const missing = await graphql({ query: 'query MetricsMissing($id: ID!) { dashboard(id: $id) { id } }', variables: { id: randomUUID() } });
    expect(missing.body.errors?.length).toBeGreaterThan(0);
    // Refused by validation: no operation name of it reaches a label.
    expect((await graphql({ query: 'query MetricsInvalid { noSuchField }' })).status).toBe(400);
    expect((await tenant.get('/tenant/public')).status).toBe(429);
    expect((await request(`${server.url}/no-such-route/1`)).status).toBe(404);
    expect((await request(`${server.url}/no-such-route/2`)).status).toBe(404);
    expect((await request(`${server.url}/tenant/public`, { headers: { ...tenant.headers, 'API-KEY': 'hpp_not-a-key' } })).status).toBe(401);

    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => sampleValue(after, name, labels) - sampleValue(before, name, labels);
    expect(delta('hpp_graphql_operations_total', { operation: 'MetricsTenant', type: 'query', outcome: 'ok' })).toBe(2);
    expect(delta('hpp_graphql_operations_total', { operation: 'anonymous', type: 'query', outcome: 'ok' })).toBe(1);
    expect(delta('hpp_graphql_operations_total', { operation: 'MetricsMissing', type: 'query', outcome: 'error' })).toBe(1);
    expect(delta('hpp_graphql_operation_duration_seconds_count', { operation: 'MetricsTenant', type: 'query' })).toBe(2);
    expect(after.some((s) => s.labels.operation === 'MetricsInvalid')).toBe(false);
    expect(delta('hpp_http_requests_total', { method: 'POST', route: '/graphql', status: '200' })).toBe(4);
    expect(delta('hpp_http_requests_total', { method: 'POST', route: '/graphql', status: '400' })).toBe(1);
    expect(delta('hpp_http_requests_total', { method: 'GET', route: '/tenant/public', status: '429' })).toBe(1);
    expect(delta('hpp_http_requests_total', { method: 'GET', route: '/tenant/public', status: '401' })).toBe(1);
    expect(delta('hpp_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(2);
    expect(delta('hpp_rate_limit_refusals_total', { policy: 'tenant' })).toBe(1);
    expect(delta('hpp_auth_failures_total', { reason: 'invalid_key' })).toBe(1);
    expect(delta('hpp_http_requests_total', { method: 'GET', route: '/metrics', status: '200' })).toBe(1);
  });
});

describe('/metrics without OPERATOR_TOKEN', () => {
  it('does not exist, like /admin', async () => {
    const server = await startInProcessApp({ OPERATOR_TOKEN: '' });
    try {
      const answer = await request(`${server.url}/metrics`);
      expect(answer.status).toBe(404);
      expect((await request(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

describe('METRICS_PORT and METRICS_HOST', () => {
  it('are off by default, read when set, and refused when bad', () => {
    expect(loadConfig({}).metricsPort).toBeNull();
    expect(loadConfig({ HOST: '10.0.0.5', METRICS_PORT: '9464' })).toMatchObject({ metricsPort: 9464, metricsHost: '10.0.0.5' });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '127.0.0.1' }).metricsHost).toBe('127.0.0.1');
    const problems = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ METRICS_PORT: 'nine' })).toEqual(['METRICS_PORT must be a whole number from 0 to 65535 (got "nine")']);
    expect(problems({ PORT: '4000', METRICS_PORT: '4000' })).toEqual(['METRICS_PORT must differ from PORT']);
  });
});
