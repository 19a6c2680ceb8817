import { randomUUID } from 'node:crypto';
import { createTestTenant, request, type TestTenant } from '../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';
import { startTcpProxy, type TcpProxy } from '../utils/tcp-proxy';
import { eventually } from '../utils/eventually';

// The pool's wait for a connection (platform/database-timeouts.ts) and a margin: an outage answers before it.
const ANSWER_WITHIN_MS = 15_000;

/**
 * The database goes away under a running server (docs/api.md, Errors): every connection is cut
 * and new ones are refused, as when PostgreSQL stops or restarts. Requests that need it answer
 * 503 with Retry-After, on REST and on /graphql, within a bound; once it is back the server serves
 * again by itself.
 */
describe('a database outage', () => {
  let proxy: TcpProxy;
  let app: InProcessApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    const direct = new URL(process.env.DATABASE_URL!);
    proxy = await startTcpProxy(direct.hostname, Number(direct.port || 5432));
    const proxied = new URL(direct);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    app = await startInProcessApp({ DATABASE_URL: proxied.toString() });
    tenant = await createTestTenant('Database Outage Clinic', app.url);
  });
  afterAll(async () => {
    await proxy.restore().catch(() => undefined);
    await app?.close();
    await proxy?.close();
  });

  const rest = () => request(`${app.url}/tenant/public`, { headers: tenant.headers, signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
  const graphql = () =>
    request(`${app.url}/graphql`, {
      method: 'POST',
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query($id: ID!) { noteTemplate(id: $id) { id } }', variables: { id: randomUUID() } }),
      signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
    });

  it('answers 503 with Retry-After while it is gone, and serves again once it is back', async () => {
    expect((await rest()).status).toBe(200);
    await proxy.cut();

    const refused = await rest();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.body).toEqual({ detail: 'Service temporarily unavailable; retry the request' });

    const onGraph = await graphql();
    expect(onGraph.status).toBe(503);
    expect(onGraph.headers.get('retry-after')).toBe('5');
    expect(onGraph.body.errors[0]).toMatchObject({ message: 'Service temporarily unavailable; retry the request', extensions: { code: 'SERVICE_UNAVAILABLE', retryAfter: 5 } });

    await proxy.restore();
    await eventually(async () => (await rest()).status === 200, { what: 'the server serving again', timeoutMs: 20_000, intervalMs: 250 });
    expect((await graphql()).status).toBe(200);
  }, 90_000);
});
