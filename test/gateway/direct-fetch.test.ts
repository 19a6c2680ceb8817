import { FULL_ACCESS } from '../../schema/scopes';
import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { trace, type Span, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { parse, type OperationDefinitionNode } from 'graphql';
import pino from 'pino';
import { loadConfig } from '../../gateway/config';
import { bootPlatform, type Platform } from '../../gateway/database/platform';
import { startGraphQL, type GraphQLLayer } from '../../gateway/graphql/graphql';
import { planSingleFetches, type SingleFetch } from '../../platform/speed/single-fetch-plan';
import { ROUTES } from '../../rest-bridge/routes';
import type { RouteDefinition } from '../../rest-bridge/types';
import { readSupergraph } from '../../schema/supergraph';
import type { OperationResult, RequestContext } from '../../schema/request-context';
import { parseSingleOperation } from '../../schema/single-operation';
import type { RunningSubgraph } from '../../platform/subgraph-runtime';
import { createDemoTenant } from '../subgraphs/analytics/revenue-kit';
import { makeImage } from '../subgraphs/tenant/image-fixtures';
import type { TestTenant } from '../utils/e2e';
import { SAMPLES, type Caller, type Fixtures, type Sample } from './direct-fetch-cases';

const MODE = process.env.E2E_MODE === 'distributed' ? 'distributed' : 'all-in-one';
const SUBGRAPHS = ['tenant', 'billing', 'analytics', 'notes'] as const;
const silent = pino({ level: 'silent' });
const PLAIN = ROUTES.filter((route) => !route.stream);
const DOCUMENTS = PLAIN.map((route) => route.document);

/** The routes the gateway answers with one passed-through subgraph fetch today, by operationId. */
const ELIGIBLE = [
  'getPublicTenant', 'getPrivateTenant', 'getTenantLogo', 'getWebhookConfig',
  'listDashboards', 'listWidgets', 'getWidget', 'executeAnalyticsQuery',
  'revenueBreakdownGroups', 'revenueBreakdown', 'revenueBreakdownGroupSummaries', 'revenueBreakdownSummary',
  'listAuditEvents',
];

/** Names of the spans opened: Apollo Gateway's executor opens `gateway.*` ones, an in-process subgraph `subgraph <name>`. */
const spans: string[] = [];

/** Records span names only (the API is a no-op without a provider); nothing an answer depends on. */
const recordingProvider: TracerProvider = {
  getTracer(): Tracer {
    const startSpan = (name: string): Span => {
      spans.push(name);
      const span: Span = {
        spanContext: () => ({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 }),
        setAttribute: () => span, setAttributes: () => span, addEvent: () => span, addLink: () => span, addLinks: () => span,
        setStatus: () => span, updateName: () => span, end: () => undefined, isRecording: () => false, recordException: () => undefined,
      };
      return span;
    };
    return {
      startSpan,
      startActiveSpan: ((name: string, ...rest: unknown[]) => (rest[rest.length - 1] as (span: Span) => unknown)(startSpan(name))) as Tracer['startActiveSpan'],
    };
  },
};

/**
 * SPEED_PLUMBING's `rest-direct` (platform/speed/single-fetch-plan.ts, operation-runner.ts): a
 * REST route whose query plan is one fetch from one subgraph sends that fetch itself instead of
 * running Apollo Gateway's executor. Allowed only while, for every such route, the answer is the gateway's: this
 * runs each eligible route's samples (answers with rows, not found, another tenant's ids, domain
 * errors, paging and filters) on demo tenants through both paths, on the real subgraphs of the run
 * mode (in-process, or over HTTP in distributed mode), and compares data and errors as a client
 * would read them, key order included.
 */
describe(`direct execution of single-fetch REST routes (${MODE} mode)`, () => {
  let platform: Platform | null = null;
  let direct: GraphQLLayer;
  let gateway: GraphQLLayer;
  let plans: Map<string, SingleFetch>;
  let demo: TestTenant;
  let other: TestTenant;
  let fixtures: Fixtures;
  /** Subgraph executions, counted in-process only (each execution makes its context once). */
  const executions: string[] = [];

  beforeAll(async () => {
    if (!trace.setGlobalTracerProvider(recordingProvider)) throw new Error('a tracer provider is already registered: spans would not be seen');
    plans = planSingleFetches(readSupergraph(), DOCUMENTS);
    if (MODE === 'distributed') {
      const urls = Object.fromEntries(SUBGRAPHS.map((name) => [`SUBGRAPH_${name.toUpperCase()}_URL`, process.env[`E2E_SUBGRAPH_${name.toUpperCase()}_URL`]!]));
      const env = { MODE: 'distributed', DATABASE_URL: process.env.DATABASE_URL, INTERNAL_SECRET: process.env.E2E_INTERNAL_SECRET, PORT: '0', ...urls };
      direct = await startGraphQL(loadConfig({ ...env, SPEED_PLUMBING: 'on' }), null, silent, DOCUMENTS);
      gateway = await startGraphQL(loadConfig({ ...env, SPEED_PLUMBING: '-rest-direct' }), null, silent, DOCUMENTS);
    } else {
      // One request at a time here: small pools leave PostgreSQL's connections to the end-to-end servers beside.
      const env = { DATABASE_URL: process.env.DATABASE_URL, PORT: '0', DEMO_TENANT: '0', WEBHOOK_DISPATCHER: 'off', DB_POOL_MAX: '3' };
      platform = await bootPlatform(loadConfig(env), silent, { migrate: false, background: false });
      const counted = platform.subgraphs!.map((subgraph): RunningSubgraph => {
        const copy = Object.create(subgraph) as RunningSubgraph;
        copy.context = (identity) => (executions.push(subgraph.name), subgraph.context(identity));
        return copy;
      });
      direct = await startGraphQL(loadConfig({ ...env, SPEED_PLUMBING: 'on' }), counted, silent, DOCUMENTS);
      gateway = await startGraphQL(loadConfig({ ...env, SPEED_PLUMBING: '-rest-direct' }), counted, silent, DOCUMENTS);
    }
    [demo, other] = await Promise.all([createDemoTenant('Direct Demo Clinic'), createDemoTenant('Direct Other Clinic')]);
    fixtures = await readFixtures();
  }, 120_000);

  afterAll(async () => {
    await direct?.server.stop();
    await gateway?.server.stop();
    await platform?.stop();
    trace.disable();
  });

  const route = (operationId: string): RouteDefinition => PLAIN.find((r) => r.operationId === operationId)!;
  const contextOf = (caller: Caller = 'demo'): RequestContext => {
    const tenantId = { demo: demo.tenantId, other: other.tenantId, unknown: randomUUID(), anonymous: null }[caller];
    return { requestId: randomUUID(), tenantId, keyId: null, scopes: FULL_ACCESS, log: silent };
  };
  /** Runs a route's document through the gateway path and fails on errors. */
  async function read(operationId: string, variables: Record<string, unknown>, caller: Caller = 'demo'): Promise<any> {
    const result = await gateway.runOperation(parseSingleOperation(route(operationId).document, gateway.apiSchema), variables, contextOf(caller));
    if (result.errors?.length || !result.data) throw new Error(`${operationId} failed: ${JSON.stringify(result.errors)}`);
    return Object.values(result.data)[0];
  }

  /** Ids and names to sample with; the demo tenant also gets a logo, so the tenant routes answer one. */
  async function readFixtures(): Promise<Fixtures> {
    const logo = await gateway.runOperation(parseSingleOperation(route('uploadTenantLogo').document, gateway.apiSchema), { file: { filename: 'logo.png', contentType: 'image/png', base64: (await makeImage('png')).toString('base64') } }, contextOf());
    if (logo.errors) throw new Error(`setting the logo failed: ${JSON.stringify(logo.errors)}`);
    const widgets = async (caller: Caller) => (await read('listWidgets', { perPage: 1 }, caller)).nodes[0];
    const locations = async (caller: Caller) => (await read('revenueBreakdownGroups', { groupBy: 'LOCATION', timezone: 'UTC' }, caller))[0];
    const [widget, otherWidget, location, otherLocation] = await Promise.all([widgets('demo'), widgets('other'), locations('demo'), locations('other')]);
    // Lines without a provider make a group with a null key, which no filter takes.
    const provider = (await read('revenueBreakdownGroups', { groupBy: 'PROVIDER', timezone: 'UTC' })).find((group: any) => group.groupKey !== null);
    const summary = await read('revenueBreakdownSummary', { timezone: 'America/Los_Angeles' });
    return {
      dashboardId: widget.dashboardId, widgetId: widget.id, locationId: location.groupKey, locationName: location.groupLabel,
      providerName: provider.groupLabel, lastDay: summary.lastDate.slice(0, 10),
      otherDashboardId: otherWidget.dashboardId, otherWidgetId: otherWidget.id, otherLocationId: otherLocation.groupKey,
    };
  }

  it('plans the expected routes as one fetch: the read routes of one subgraph, never a mutation, never merchant accounts', () => {
    const eligible = PLAIN.filter((r) => plans.has(r.document));
    expect(eligible.map((r) => r.operationId).sort()).toEqual([...ELIGIBLE].sort());
    expect(eligible.map((r) => r.method).filter((m) => m !== 'GET')).toEqual(['POST']);
    expect(plans.has(route('listMerchantAccounts').document)).toBe(false);
    const mutations = PLAIN.filter((r) => (parse(r.document).definitions[0] as OperationDefinitionNode).operation === 'mutation');
    expect(mutations.length).toBeGreaterThan(10);
    expect(mutations.filter((r) => plans.has(r.document)).map((r) => r.operationId)).toEqual([]);
    // Every eligible route must have samples below: a route that becomes eligible fails here until it gets some.
    expect(Object.keys(SAMPLES).sort()).toEqual([...ELIGIBLE].sort());
  });

  it('plans the fetch the gateway would send: its subgraph, operation and variables', () => {
    const publicTenant = plans.get(route('getPublicTenant').document)!;
    expect(publicTenant).toMatchObject({ subgraph: 'tenant', operationName: 'PublicTenant__tenant__0', variableNames: [] });
    expect(publicTenant.query).toBe('query PublicTenant__tenant__0{publicTenant{id name timezone locale currency website phone primaryColor logoUrl receiptLogoUrl}}');
    expect(plans.get(route('getWidget').document)).toMatchObject({ subgraph: 'analytics', operationName: 'Widget__analytics__0', variableNames: ['id'] });
    const summary = plans.get(route('revenueBreakdownSummary').document)!;
    expect(summary.subgraph).toBe('analytics');
    expect([...summary.variableNames].sort()).toEqual(
      ['timezone', 'startDate', 'endDate', 'locationIds', 'locationNames', 'providerIds', 'providerNames', 'patientIds', 'patientNames',
        'itemCategories', 'itemTypes', 'itemNames', 'paymentMediums', 'minNetCents', 'maxNetCents', 'comment'].sort(),
    );
  });

  it('in-process, every single fetch runs compiled by graphql-jit (the gateway path, interpreted, is what it is compared with)', () => {
    const expected = MODE === 'all-in-one' ? ELIGIBLE.map((id) => plans.get(route(id).document)!.operationName).sort() : [];
    expect([...direct.compiled].sort()).toEqual(expected);
    expect(gateway.compiled).toEqual([]);
  });

  it.each(ELIGIBLE)('%s: every sample answers the same data and errors directly as through the gateway', async (operationId) => {
    const { document } = route(operationId);
    const differences: unknown[] = [];
    const unmet: unknown[] = [];
    const wrongPath: string[] = [];
    for (const sample of SAMPLES[operationId](fixtures)) {
      const ctx = contextOf(sample.as);
      const viaGateway = await runTraced(gateway, document, sample.variables, ctx);
      const viaDirect = await runTraced(direct, document, sample.variables, ctx);
      // As the bridge sends it on: JSON, key order included.
      if (JSON.stringify(viaDirect.result) !== JSON.stringify(viaGateway.result)) {
        differences.push({ sample: sample.name, variables: sample.variables, direct: viaDirect.result, gateway: viaGateway.result });
      }
      if (!meaningful(sample, viaGateway.result)) unmet.push({ sample: sample.name, expected: sample.expect, gateway: viaGateway.result });
      // Two answers of one path would compare equal whatever the direct path does.
      if (viaDirect.executor || !viaGateway.executor) wrongPath.push(sample.name);
    }
    expect(differences).toEqual([]);
    expect(unmet).toEqual([]);
    expect(wrongPath).toEqual([]);
  });

  /** Each eligible route's first sample through both paths of a pair of layers over HTTP subgraphs that fail every fetch. */
  async function failingFetches(urlOf: (name: string) => string, secret: string) {
    const urls = Object.fromEntries(SUBGRAPHS.map((name) => [`SUBGRAPH_${name.toUpperCase()}_URL`, urlOf(name)]));
    const env = { MODE: 'distributed', DATABASE_URL: process.env.DATABASE_URL, INTERNAL_SECRET: secret, PORT: '0', ...urls };
    const failing = { direct: await startGraphQL(loadConfig({ ...env, SPEED_PLUMBING: 'on' }), null, silent, DOCUMENTS), gateway: await startGraphQL(loadConfig({ ...env, SPEED_PLUMBING: '-rest-direct' }), null, silent, DOCUMENTS) };
    try {
      const answers = [];
      for (const operationId of ELIGIBLE) {
        const { variables } = SAMPLES[operationId](fixtures)[0];
        const ctx = contextOf();
        answers.push({ operationId, direct: await failing.direct.runOperation(parseSingleOperation(route(operationId).document, failing.direct.apiSchema), variables, ctx), gateway: await failing.gateway.runOperation(parseSingleOperation(route(operationId).document, failing.gateway.apiSchema), variables, ctx) });
      }
      return answers;
    } finally {
      await failing.direct.server.stop();
      await failing.gateway.server.stop();
    }
  }

  it('a subgraph that cannot be reached: the same answer on both paths, for every eligible route', async () => {
    const closed = await closedPort();
    const answers = await failingFetches(() => `http://127.0.0.1:${closed}`, 'unreachable-'.repeat(4));
    expect(answers.filter((a) => JSON.stringify(a.direct) !== JSON.stringify(a.gateway))).toEqual([]);
    // A nullable root field (the logo; single lookups are nullable too): the gateway answers it null beside the error, not `data: null`.
    // Unreachable is an outage: SERVICE_UNAVAILABLE with when to retry (gateway/graphql/remote-data-source.ts).
    expect(answers.find((a) => a.operationId === 'getTenantLogo')!.direct).toEqual({ data: { tenantLogo: null }, errors: [{ message: 'Subgraph unavailable', extensions: { code: 'SERVICE_UNAVAILABLE', retryAfter: 5 } }] });
  });

  (MODE === 'distributed' ? it : it.skip)('a subgraph refusing the gateway (a wrong internal secret): the same answer on both paths', async () => {
    const answers = await failingFetches((name) => process.env[`E2E_SUBGRAPH_${name.toUpperCase()}_URL`]!, 'not-the-internal-secret-'.repeat(2));
    expect(answers.filter((a) => JSON.stringify(a.direct) !== JSON.stringify(a.gateway))).toEqual([]);
    expect(answers.map((a) => a.gateway.errors?.[0]?.extensions?.code)).toEqual(ELIGIBLE.map(() => 'UNAUTHENTICATED'));
  });

  it("the direct path is the one taken: the planned subgraph runs once, the gateway's executor not at all", async () => {
    const traced = async (layer: GraphQLLayer, document: string) => {
      spans.length = 0;
      const before = executions.length;
      const result = await layer.runOperation(parseSingleOperation(document, layer.apiSchema), {}, contextOf());
      const opened = [...new Set(spans)];
      return { gateway: opened.filter((s) => s.startsWith('gateway.')).sort(), subgraphs: opened.filter((s) => s.startsWith('subgraph ')), executions: executions.slice(before), errors: result.errors };
    };
    // Subgraph spans and executions are seen in-process only; in distributed mode they are another process's.
    const inProcess = <T>(seen: T[]): T[] => (MODE === 'all-in-one' ? seen : []);
    const publicTenant = route('getPublicTenant').document;
    expect(await traced(direct, publicTenant)).toEqual({ gateway: [], subgraphs: inProcess(['subgraph tenant']), executions: inProcess(['tenant']), errors: undefined });
    // The same route on the gateway path: the executor validates, plans (cached after the first time), executes and fetches.
    expect(await traced(gateway, publicTenant)).toEqual({
      gateway: expect.arrayContaining(['gateway.request', 'gateway.validate', 'gateway.execute', 'gateway.fetch']),
      subgraphs: inProcess(['subgraph tenant']),
      executions: inProcess(['tenant']),
      errors: undefined,
    });
    // A route of two subgraphs on the direct layer still goes through the executor.
    const accounts = await traced(direct, route('listMerchantAccounts').document);
    expect(accounts).toEqual({ gateway: expect.arrayContaining(['gateway.request', 'gateway.fetch']), subgraphs: expect.any(Array), executions: inProcess(['billing', 'tenant']), errors: undefined });
  });
});

/** Runs one operation and says whether Apollo Gateway's executor ran for it (it opens `gateway.*` spans). */
async function runTraced(layer: GraphQLLayer, document: string, variables: Record<string, unknown>, ctx: RequestContext): Promise<{ result: OperationResult; executor: boolean }> {
  spans.length = 0;
  const result = await layer.runOperation(parseSingleOperation(document, layer.apiSchema), variables, ctx);
  return { result, executor: spans.some((name) => name.startsWith('gateway.')) };
}

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether the gateway's answer is what the sample is meant to show, so that no comparison is vacuous. */
function meaningful(sample: Sample, result: OperationResult): boolean {
  if (sample.expect !== 'rows' && sample.expect !== 'data') return result.errors?.[0]?.extensions?.code === sample.expect;
  if (result.errors?.length || !result.data) return false;
  const value = Object.values(result.data)[0] as any;
  if (sample.expect === 'data' || value === null) return sample.expect === 'data';
  // The rows of a list, a page (`items`) or a query engine answer (`data`); an object without them counts as one.
  const rows = Array.isArray(value) ? value : (value.items ?? value.nodes ?? value.data ?? [value]);
  return rows.length > 0;
}
