/**
 * Abuse suite, REST side: for every operation of the running server's /openapi.json, generated and
 * mutated requests (fast-check) never get a 5xx, a non-JSON body, an error body outside the
 * contract's shape, or anything that reads like a stack trace; requests the contract cannot accept
 * (NUL in text, a body that is not JSON, a false Content-Encoding, another tenant's ids...) never
 * succeed. One test per category; each lists every operation that broke a rule, with the request.
 */
import { randomUUID } from 'node:crypto';
import { assertSafe, describeRequest, send, type AbuseRequest } from '../utils/abuse-http';
import { operationsOf, type Operation } from '../utils/abuse-openapi';
import { authCases, bodyCases, contentTypeCases, encodingCases, fillPath, pathCases, queryCases, uploadCases, type AbuseCase, type CaseContext, type CategoryCases } from '../utils/abuse-rest-cases';
import { reportFailures, runProperty, serverAlive } from '../utils/abuse-runner';
import { createResources, type ForeignIds } from '../utils/abuse-tenants';
import { baseUrl, createTestTenant, request, type TestTenant } from '../utils/e2e';

jest.setTimeout(180_000);

let doc: any;
let operations: Operation[];
let tenant: TestTenant;
let other: TestTenant;
let foreign: ForeignIds;
let own: ForeignIds;

beforeAll(async () => {
  const res = await request(`${baseUrl()}/openapi.json`, { signal: AbortSignal.timeout(10_000) });
  doc = res.body;
  operations = operationsOf(doc);
  tenant = await createTestTenant('Abuse Clinic');
  other = await createTestTenant('Other Clinic');
  [own, foreign] = await Promise.all([createResources(tenant), createResources(other)]);
});

/** Runs one category over every operation it applies to; stops early if the server stops answering. */
async function fuzzCategory(category: string, casesFor: (ctx: CaseContext) => CategoryCases | null): Promise<void> {
  const base = baseUrl();
  const failures: string[] = [];
  let applied = 0;
  for (const op of operations) {
    const cases = casesFor({ doc, op, auth: tenant.headers, otherAuth: other.headers, ownIds: own });
    if (!cases) continue;
    applied++;
    const found = await runProperty(`${op.method} ${op.path} [${category}]`, cases.arb, cases.examples, async (c: AbuseCase) => {
      assertSafe(c.req, await send(base, c.req), c.expect);
    });
    failures.push(...found);
    if (found.some((f) => f.includes('no HTTP answer')) && !(await serverAlive(base))) {
      failures.push(`the server stopped answering /healthz after ${op.method} ${op.path} [${category}]; the remaining operations were not tried`);
      break;
    }
  }
  expect(applied).toBeGreaterThan(0);
  reportFailures(`operation(s) in category "${category}"`, failures);
}

test('the OpenAPI document lists the operations the suite fuzzes', () => {
  // A document that lost its paths would make every category pass vacuously.
  expect(operations.length).toBeGreaterThanOrEqual(25);
  expect(operations.filter((op) => op.bodyTypes.includes('application/json')).length).toBeGreaterThanOrEqual(10);
});

test('path parameters: unknown ids, traversal, NUL, bad percent-encodings, huge', () => fuzzCategory('path', pathCases));
test('query parameters: wrong types, NUL, bad encodings, repeated, huge', () => fuzzCategory('query', queryCases));
test('JSON bodies: wrong types, null, NUL, surrogates, nesting to 10,000 levels, huge, malformed', () => fuzzCategory('body', bodyCases));
test('content types: a JSON route refuses its body under any other media type', () => fuzzCategory('content-type', contentTypeCases));
test('content encodings: false gzip/deflate/br, unknown encodings, a gzip bomb', () => fuzzCategory('content-encoding', encodingCases));
test('uploads: broken multipart, images that are only a signature, files over the cap', () => fuzzCategory('upload', uploadCases));
test('credentials: missing, wrong, mixed between tenants, oversized', () => fuzzCategory('auth', authCases));

test("another tenant's ids behave exactly like unknown ids (404), never 200/403/500", async () => {
  const base = baseUrl();
  const failures: string[] = [];
  let compared = 0;
  for (const op of operations) {
    if (op.public) continue;
    const names = [...op.pathParams, ...op.queryParams.map((p) => p.name)].filter((n) => foreign[n]);
    // An id in the path or a required parameter names the resource; an optional one only filters a list.
    const naming = names.some((n) => op.pathParams.includes(n) || op.queryParams.some((p) => p.name === n && p.required));
    if (names.length === 0) continue;
    compared++;
    const build = (ids: Record<string, string>): AbuseRequest => {
      const query = op.queryParams.filter((p) => p.required || ids[p.name]).map((p) => `${p.name}=${encodeURIComponent(ids[p.name] ?? 'UTC')}`);
      const json = op.bodyTypes.includes('application/json');
      return {
        method: op.method,
        path: fillPath(op, ids) + (query.length ? `?${query.join('&')}` : ''),
        headers: { ...tenant.headers, ...(json ? { 'content-type': 'application/json' } : {}) },
        body: json ? { kind: 'json', value: op.bodyExample ?? {} } : { kind: 'none' },
      };
    };
    const theirs = build(Object.fromEntries(names.map((n) => [n, foreign[n]])));
    const unknown = build(Object.fromEntries(names.map((n) => [n, randomUUID()])));
    try {
      const [a, b] = [await send(base, theirs), await send(base, unknown)];
      assertSafe(theirs, a, { refuse: naming ? "the ids are another tenant's" : undefined, successTypes: op.successTypes });
      if (a.status === 403) throw new Error(`403 tells the id exists elsewhere\n  request: ${describeRequest(theirs)}`);
      const detail = (r: typeof a) => JSON.stringify(r.status < 300 ? r.json : (r.json as any)?.detail);
      if (a.status !== b.status || detail(a) !== detail(b)) {
        throw new Error(`another tenant's ids answer ${a.status} ${detail(a)}, unknown ids ${b.status} ${detail(b)}\n  request: ${describeRequest(theirs)}`);
      }
    } catch (error) {
      failures.push(`${op.method} ${op.path} [cross-tenant]: ${(error as Error).message}`);
    }
  }
  expect(compared).toBeGreaterThanOrEqual(5);
  reportFailures('operation(s) with foreign ids', failures);
});
