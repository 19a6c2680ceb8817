import type { AddressInfo } from 'node:net';
import { serveSubgraph } from '../../platform/serve-subgraph';
import { startSubgraph, type RunningSubgraph } from '../../platform/subgraph-runtime';
import { tenantSubgraph } from '../../subgraphs/tenant';
import { TenantService } from '../../subgraphs/tenant/services/tenant.service';
import { request } from '../utils/e2e';

describe('a subgraph served alone accepts only the gateway', () => {
  const SECRET = 'subgraph-test-secret-0123456789';
  let subgraph: RunningSubgraph;
  let service: Awaited<ReturnType<typeof serveSubgraph>>;
  let url: string;
  let tenantId: string;

  beforeAll(async () => {
    subgraph = await startSubgraph(tenantSubgraph, process.env.DATABASE_URL!, { migrate: false });
    service = await serveSubgraph(subgraph, { port: 0, host: '127.0.0.1', secret: SECRET });
    url = `http://127.0.0.1:${(service.server.address() as AddressInfo).port}`;
    tenantId = (await new TenantService(subgraph.orm.em.fork() as never).create('Direct')).id;
  });
  afterAll(async () => {
    await service.close();
    await subgraph.close();
  });

  const post = (headers: Record<string, string>) =>
    request(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query: '{ tenant { id } }' }) });

  it('refuses a call without the internal secret', async () => {
    const res = await post({ 'x-tenant-id': tenantId });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'This subgraph accepts calls from the gateway only' });
  });

  it('refuses a wrong secret', async () => {
    expect((await post({ 'x-tenant-id': tenantId, 'x-internal-secret': 'guess' })).status).toBe(401);
  });

  it('answers the gateway, scoped to the forwarded tenant', async () => {
    const res = await post({ 'x-tenant-id': tenantId, 'x-internal-secret': SECRET });
    expect(res.status).toBe(200);
    expect(res.body.data.tenant.id).toBe(tenantId);
  });

  it('keeps health open for orchestrators', async () => {
    expect((await request(`${url}/healthz`)).body).toEqual({ status: 'ok', service: 'tenant' });
  });
});
