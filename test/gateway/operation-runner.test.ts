import { FULL_ACCESS } from '../../schema/scopes';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { loadConfig } from '../../gateway/config';
import { startGraphQL, type GraphQLLayer } from '../../gateway/graphql/graphql';
import type { OperationResult, RequestContext } from '../../schema/request-context';
import { parseSingleOperation } from '../../schema/single-operation';
import { createTestTenant, type TestTenant } from '../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';

/**
 * The operation runner hands Apollo Gateway's executor a request context it builds itself,
 * skipping Apollo Server's pipeline (gateway/graphql/operation-runner.ts). This is the seam's test: for
 * operations like the REST bridge's (one and two subgraphs, lists, mutations, domain errors at
 * the root and below it) the runner answers exactly what Apollo Server answers for the same
 * operation and context. An Apollo release that reads another field of the request context
 * breaks it here, not in production.
 */
describe('operation runner: the seam to Apollo Gateway executor', () => {
  let app: InProcessApp;
  let graph: GraphQLLayer;
  let tenant: TestTenant;
  let ctx: RequestContext;
  let locationId: string;

  beforeAll(async () => {
    app = await startInProcessApp();
    const config = loadConfig({ DATABASE_URL: process.env.DATABASE_URL, PORT: '0', DEMO_TENANT: '0' });
    graph = await startGraphQL(config, app.platform.subgraphs, pino({ level: 'silent' }));
    tenant = await createTestTenant('Seam Clinic', app.url);
    ctx = { requestId: randomUUID(), tenantId: tenant.tenantId, keyId: null, scopes: FULL_ACCESS, log: pino({ level: 'silent' }) };
    const created = await graph.runOperation(parseSingleOperation('mutation($input: CreateLocationInput!) { createLocation(input: $input) { id } }', graph.apiSchema), { input: { name: 'Seam Street', addressLineOne: '1 Seam Street', city: 'Springfield' } }, ctx);
    if (!created.data) throw new Error(`createLocation failed: ${JSON.stringify(created.errors)}`);
    locationId = (created.data.createLocation as { id: string }).id;
  });
  afterAll(async () => {
    await graph.server.stop();
    await app.close();
  });

  /** Apollo Server's full pipeline for the same operation and context. */
  async function throughApolloServer(query: string, variables: Record<string, unknown>): Promise<OperationResult> {
    const response = await graph.server.executeOperation({ query, variables }, { contextValue: ctx });
    if (response.body.kind !== 'single') throw new Error('expected a single result');
    const { data, errors } = response.body.singleResult;
    return errors?.length ? { data: data as OperationResult['data'], errors } : { data: data as OperationResult['data'] };
  }

  const cases: Array<[string, string, () => Record<string, unknown>]> = [
    ['one subgraph', 'query { tenant { id name } }', () => ({})],
    ['two subgraphs (an entity extended by billing)', 'query($id: ID!) { location(id: $id) { id name merchantAccounts { id } } }', () => ({ id: locationId })],
    ['a page with arguments and defaults', 'query($name: String) { dashboards(first: 5, name: $name) { nodes { id name } totalCount pageInfo { hasNextPage } } }', () => ({ name: 'none' })],
    ['a domain error at the root (NOT_FOUND)', 'query($id: ID!) { dashboard(id: $id) { id name } }', () => ({ id: randomUUID() })],
    ['a domain error below the root, after another subgraph answered', 'query($id: ID!) { location(id: $id) { id merchantAccounts { id } } }', () => ({ id: randomUUID() })],
    ['a refused mutation (BAD_USER_INPUT)', 'mutation($input: CreateDashboardInput!) { createDashboard(input: $input) { id } }', () => ({ input: { name: '' } })],
  ];

  it.each(cases)('%s: same data and errors as Apollo Server', async (_name, query, variables) => {
    const vars = variables();
    const viaRunner = await graph.runOperation(parseSingleOperation(query, graph.apiSchema), vars, ctx);
    expect(viaRunner).toEqual(await throughApolloServer(query, vars));
  });

  it('a mutation through the runner writes what a query through Apollo Server then reads', async () => {
    const created = await graph.runOperation(parseSingleOperation('mutation($input: CreateDashboardInput!) { createDashboard(input: $input) { id name } }', graph.apiSchema), { input: { name: 'Seam board' } }, ctx);
    const id = (created.data!.createDashboard as { id: string }).id;
    expect(await throughApolloServer('query($id: ID!) { dashboard(id: $id) { id name } }', { id })).toEqual({ data: { dashboard: { id, name: 'Seam board' } } });
  });

  it('another tenant context through the runner sees that tenant only', async () => {
    const other = { ...ctx, tenantId: (await createTestTenant('Seam Other Clinic', app.url)).tenantId };
    const result = await graph.runOperation(parseSingleOperation('query($id: ID!) { location(id: $id) { id } }', graph.apiSchema), { id: locationId }, other);
    expect(result.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
