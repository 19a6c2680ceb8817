import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { request, type HttpResult } from '../utils/e2e';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../utils/otlp-receiver';
import { watchOutput, type WatchedOutput } from '../utils/watch-output';
import { suiteWorkDir } from '../utils/work-dir';
import { spawnChild, START_LIMIT_MS } from '../utils/children';

const DIST = join(__dirname, '../../dist');
const OPERATOR_TOKEN = 'tracing-operator-token-0123456789';
const INTERNAL_SECRET = 'tracing-internal-secret-0123456789';
const SUBGRAPHS = ['tenant', 'billing', 'analytics', 'notes'];
const distributed = process.env.E2E_MODE === 'distributed';
const SERVER = 2; // OTLP SpanKind
const CLIENT = 3;

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/**
 * The servers this suite needs exporting to its own receiver: the shared end-to-end server
 * exports nowhere, so the gateway (and in distributed mode the four subgraph services) run again
 * here from dist/, as in production, with OTEL_EXPORTER_OTLP_ENDPOINT set.
 */
describe(`OpenTelemetry traces (${distributed ? 'distributed' : 'all-in-one'} mode)`, () => {
  const work = suiteWorkDir('hpp-tracing-');
  const children: { child: ChildProcess; output: WatchedOutput }[] = [];
  let receiver: OtlpReceiver;
  let base = '';
  let gateway: WatchedOutput;

  const launch = (script: string, env: Record<string, string>): WatchedOutput => {
    const child = spawnChild(process.execPath, [join(DIST, script)], {
      env: { ...process.env, ...env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '100', HOST: '127.0.0.1', PORT: '0', INTERNAL_SECRET },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = watchOutput(child);
    children.push({ child, output });
    return output;
  };

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    const urls: Record<string, string> = {};
    if (distributed) {
      const services = SUBGRAPHS.map((name) => ({ name, output: launch(`subgraphs/${name}/main.js`, {}) }));
      for (const { name, output } of services) urls[`SUBGRAPH_${name.toUpperCase()}_URL`] = `http://127.0.0.1:${(await output.waitFor(/"msg":"listening","port":(\d+)/))[1]}`;
    }
    gateway = launch('gateway/main.js', {
      ...urls,
      MODE: distributed ? 'distributed' : 'all-in-one',
      DATA_DIR: join(work(), 'data'),
      LOG_LEVEL: 'info',
      OPERATOR_TOKEN,
      DEMO_TENANT: '0',
      WEBHOOK_DISPATCHER: 'off',
      RATE_LIMIT_PER_WINDOW: '1000000',
    });
    base = (await gateway.waitFor(/is listening on (http:\/\/127\.0\.0\.1:\d+)/))[1];
  }, START_LIMIT_MS + 60_000);

  afterAll(async () => {
    for (const { child } of children) if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.all(children.map(({ output }) => output.exited));
    await receiver?.close();
  }, 60_000);

  const send = (path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown }): Promise<HttpResult> =>
    request(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });

  it('follows one REST request from the edge through the gateway and the subgraph to its SQL in one trace, with no patient data in any span', async () => {
    const created = await send('/admin/tenants', { method: 'POST', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` }, body: { name: 'Tracing Clinic' } });
    expect(created.status).toBe(201);
    const tenantId: string = created.body.tenant.id;
    const apiKey: string = created.body.apiKey;
    const headers = { TENANT: tenantId, 'API-KEY': apiKey };

    // Patient data that reaches the database as literals in the ORM's SQL text, through /graphql and REST.
    const run = hex(4);
    const patient = { firstName: `Zenobia${run}`, lastName: `Quartermaine${run}`, email: `zq.${run}@example.com`, phone: `+1 555 ${100 + (parseInt(run, 16) % 900)} ${1000 + (parseInt(run, 16) % 9000)}`, dateOfBirth: '1961-07-14' };
    const createdPatient = await send('/graphql', { method: 'POST', headers, body: { query: 'mutation($i: CreatePatientInput!) { createPatient(input: $i) { id } }', variables: { i: patient } } });
    expect(createdPatient.body.errors).toBeUndefined();
    const patientId: string = createdPatient.body.data.createPatient.id;

    // The request under test, joined to a trace its client started (W3C traceparent).
    const traceId = hex(16);
    const clientSpanId = hex(8);
    const card = { paymentMethodId: `pm_trace_${run}`, methodType: 'card', card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: new Date().getUTCFullYear() + 3 } };
    const answer = await send(`/user/patient/payment-methods/create?patient_id=${patientId}`, {
      method: 'POST',
      headers: { ...headers, traceparent: `00-${traceId}-${clientSpanId}-01` },
      body: card,
    });
    expect(answer.status).toBe(200);

    const inTrace = () => receiver.spans.filter((span) => span.traceId === traceId);
    const billingSpan = (spans: ReceivedSpan[]) => spans.find((span) => span.name === 'subgraph billing');
    const sqlUnder = (spans: ReceivedSpan[], parent: ReceivedSpan | undefined) => spans.filter((span) => span.scope.includes('instrumentation-pg') && parent && span.parentSpanId === parent.spanId);
    await receiver.waitFor(() => {
      const spans = inTrace();
      return spans.some((span) => span.name.startsWith('POST /user/patient')) && sqlUnder(spans, billingSpan(spans)).length > 0 && spans.some((span) => span.name === 'gateway.request');
    });
    const spans = inTrace();
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const gatewayService = 'hpp-gateway';
    const subgraphService = distributed ? 'hpp-billing-subgraph' : gatewayService;

    // The edge: a child of the client's span, named by the route template, tagged with the tenant.
    const edge = spans.find((span) => span.kind === SERVER && span.service === gatewayService)!;
    expect(edge).toMatchObject({ parentSpanId: clientSpanId, name: 'POST /user/patient/payment-methods/create' });
    expect(edge.attributes).toMatchObject({ 'http.route': '/user/patient/payment-methods/create', 'http.response.status_code': 200, 'tenant.id': tenantId });
    // The GraphQL operation and the fetch to billing (Apollo Gateway's spans), then the subgraph's span and its SQL.
    const operation = spans.find((span) => span.name === 'gateway.request' && span.service === gatewayService)!;
    const fetch = spans.find((span) => span.name === 'gateway.fetch' && span.attributes.service === 'billing')!;
    const subgraph = billingSpan(spans)!;
    const sql = sqlUnder(spans, subgraph);
    expect(operation).toBeDefined();
    expect(fetch).toBeDefined();
    expect(subgraph.service).toBe(subgraphService);
    expect(sql.every((span) => span.service === subgraphService)).toBe(true);
    // Every span of them leads up to the edge, through the HTTP hop in distributed mode.
    const ancestors = (span: ReceivedSpan): ReceivedSpan[] => {
      const parent = byId.get(span.parentSpanId);
      return parent ? [parent, ...ancestors(parent)] : [];
    };
    expect(ancestors(sql[0])).toEqual(expect.arrayContaining([subgraph, fetch, operation, edge]));
    if (distributed) {
      const served = spans.find((span) => span.kind === SERVER && span.service === subgraphService)!;
      expect(served.attributes['http.route']).toBe('/graphql');
      expect(ancestors(subgraph)).toContain(served);
      expect(ancestors(served).find((span) => span.kind === CLIENT)?.service).toBe(gatewayService);
    }
    // The tenant on the edge, the gateway's and the subgraph's spans and on each statement.
    for (const span of [edge, operation, fetch, subgraph, ...sql]) expect(span.attributes['tenant.id']).toBe(tenantId);
    // Statements keep their shape only: the insert of the card has no values in it.
    expect(sql.some((span) => /insert into/i.test(String(span.attributes['db.query.text'])))).toBe(true);

    // The access log line of the request carries its trace id.
    const logLine = (await gateway.waitFor(new RegExp(`^.*"route":"/user/patient/payment-methods/create".*$`, 'm')))[0];
    expect(JSON.parse(logLine)).toMatchObject({ trace_id: traceId, tenantId });

    // Nothing the client sent or the database holds shows in any span received (both requests, all processes).
    await receiver.waitFor((all) => all.some((span) => span.strings.some((text) => /insert into "?tenant"?\."?patients/i.test(text))));
    const secrets = [patient.firstName, patient.lastName, patient.email, patient.phone, patient.dateOfBirth, card.paymentMethodId, apiKey, apiKey.slice(-16), patientId, INTERNAL_SECRET, OPERATOR_TOKEN];
    const leaks = receiver.spans.flatMap((span) => span.strings.filter((text) => secrets.some((secret) => text.includes(secret))).map((text) => `${span.service} ${span.name}: ${text}`));
    expect(leaks).toEqual([]);
    // No header is recorded, and no raw path or query string (ids, the lead webhook's key).
    const keys = receiver.spans.flatMap((span) => Object.keys(span.attributes));
    expect(keys.filter((key) => key.startsWith('http.request.header') || key.startsWith('http.response.header') || key === 'url.query' || key === 'url.path')).toEqual([]);
  }, 90_000);
});
