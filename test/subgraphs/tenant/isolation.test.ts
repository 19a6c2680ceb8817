import { execute, parse } from 'graphql';
import { tenantSubgraph } from '../../../subgraphs/tenant';
import { startSubgraph, type RunningSubgraph } from '../../../platform/subgraph-runtime';
import { ApiKeyService } from '../../../subgraphs/tenant/services/api-key.service';
import { TenantService } from '../../../subgraphs/tenant/services/tenant.service';

describe('tenant subgraph isolation (real PostgreSQL, federation through _entities)', () => {
  let subgraph: RunningSubgraph;
  let a: string;
  let b: string;

  beforeAll(async () => {
    subgraph = await startSubgraph(tenantSubgraph, process.env.DATABASE_URL!, { migrate: false });
    const em = subgraph.orm.em.fork();
    a = (await new TenantService(em as never).create('Isolation A')).id;
    b = (await new TenantService(em as never).create('Isolation B')).id;
    await new ApiKeyService(em as never).issue(a);
    await new ApiKeyService(em as never).issue(b);
    await new ApiKeyService(em as never).issue(b);
  });
  afterAll(() => subgraph.close());

  const run = (tenantId: string | null, query: string, variableValues?: Record<string, unknown>) =>
    execute({ schema: subgraph.schema, document: parse(query), variableValues, contextValue: subgraph.context({ tenantId, requestId: 'test' }) });

  it("answers the context tenant's own record", async () => {
    const result = await run(a, '{ tenant { id name } publicTenant { id } }');
    expect(result.data).toEqual({ tenant: { id: a, name: 'Isolation A' }, publicTenant: { id: a } });
  });

  it("resolves only the caller's own Tenant reference; B's id behaves like an unknown one", async () => {
    const query = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Tenant { id name } } }';
    const result = await run(a, query, {
      r: [
        { __typename: 'Tenant', id: a },
        { __typename: 'Tenant', id: b },
        { __typename: 'Tenant', id: '00000000-0000-0000-0000-000000000000' },
        { __typename: 'Tenant', id: 'not-a-uuid' },
      ],
    });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ _entities: [{ id: a, name: 'Isolation A' }, null, null, null] });
  });

  it("lists only the caller's API keys", async () => {
    const ofA = await run(a, '{ apiKeys { totalCount nodes { id } } }');
    const ofB = await run(b, '{ apiKeys { totalCount nodes { id } } }');
    expect((ofA.data as any).apiKeys.totalCount).toBe(1);
    expect((ofB.data as any).apiKeys.totalCount).toBe(2);
    const idsOfA = (ofA.data as any).apiKeys.nodes.map((k: { id: string }) => k.id);
    const idsOfB = (ofB.data as any).apiKeys.nodes.map((k: { id: string }) => k.id);
    expect(idsOfA.some((id: string) => idsOfB.includes(id))).toBe(false);
  });

  it('refuses tenant data without a tenant in the context', async () => {
    const result = await run(null, '{ tenant { id } }');
    expect(result.errors?.[0].message).toBe('A tenant is required');
    expect(result.errors?.[0].originalError?.constructor.name).toBe('UnauthenticatedError');
  });
});
