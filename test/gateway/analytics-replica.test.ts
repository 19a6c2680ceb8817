import { randomUUID } from 'node:crypto';
import { createTestTenant, request, type TestTenant } from '../utils/e2e';
import { eventually } from '../utils/eventually';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';
import { parseMetrics, sampleValue } from '../utils/metrics-text';
import { replicaDatabase } from '../utils/replica-database';

/**
 * All-in-one with DATABASE_REPLICA_URL: the gateway's configuration reaches the in-process
 * analytics subgraph, whose lists come from the replica (a second, empty database here) while a
 * write and the lookup after it come from the primary; the gateway's `/metrics` shows the replica.
 */
describe('all-in-one with an analytics read replica', () => {
  let app: InProcessApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    app = await startInProcessApp({ DATABASE_REPLICA_URL: await replicaDatabase(), REPLICA_MAX_LAG_MS: '1000' });
    tenant = await createTestTenant('Replica Clinic', app.url);
  }, 120_000);
  afterAll(() => app?.close());

  const metrics = async () => parseMetrics((await request(`${app.url}/metrics`, { headers: { authorization: `Bearer ${process.env.E2E_OPERATOR_TOKEN}` } })).text);

  it('lists from the replica, writes and lookups by id from the primary, the replica in the metrics', async () => {
    await eventually(async () => sampleValue(await metrics(), 'hpp_db_replica_in_use', { pool: 'analytics' }) === 1, { what: 'the replica in use' });
    const name = `Fresh ${randomUUID()}`;
    const created = await request(`${app.url}/analytics/dashboards`, { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
    expect(created.status).toBe(201);
    const lookup = JSON.stringify({ query: 'query($id: ID!) { dashboard(id: $id) { name } }', variables: { id: created.body.id } });
    const found = await request(`${app.url}/graphql`, { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json' }, body: lookup });
    expect(found.body).toEqual({ data: { dashboard: { name } } });
    // The replica database holds no dashboard at all.
    const listed = await request(`${app.url}/analytics/dashboards`, { headers: tenant.headers });
    expect([listed.status, listed.body.total]).toEqual([200, 0]);
    const samples = await metrics();
    expect(sampleValue(samples, 'hpp_db_replica_lag_seconds', { pool: 'analytics' })).toBe(0);
    expect(sampleValue(samples, 'hpp_db_stale_reads_total', { pool: 'analytics', connection: 'replica' })).toBeGreaterThan(0);
  });
});
