/**
 * Abuse suite, GraphQL side: every root field of the API schema (built from the checked-in
 * supergraph) called with generated then mutated variables and literals, and hostile documents
 * (depth, aliases, directives, fragment cycles, token floods, batches) and bodies. /graphql never
 * answers a 5xx, always JSON, never an INTERNAL_SERVER_ERROR; abusive documents get an error.
 */
import fc from 'fast-check';
import { getNamedType, getNullableType, isInputObjectType, isListType, type GraphQLField, type GraphQLSchema } from 'graphql';
import { send, type AbuseRequest, type BodySpec } from '../utils/abuse-http';
import { apiSchema, assertGraphQLSafe, expandHuge, inputValue, minimalValue, operationFor, variableMutation } from '../utils/abuse-graphql';
import { holdsRefusedText } from '../utils/abuse-openapi';
import { reportFailures, runProperty, serverAlive } from '../utils/abuse-runner';
import { baseUrl, createTestTenant, type TestTenant } from '../utils/e2e';

jest.setTimeout(180_000);

let schema: GraphQLSchema;
let tenant: TestTenant;

beforeAll(async () => {
  schema = apiSchema();
  tenant = await createTestTenant('GraphQL Abuse Clinic');
});

const graphqlRequest = (body: BodySpec, headers: Record<string, string> = { 'content-type': 'application/json' }): AbuseRequest => ({
  method: 'POST',
  path: '/graphql',
  headers: { ...tenant.headers, ...headers },
  body,
});

interface GraphQLCase {
  req: AbuseRequest;
  refuse?: string;
}

/** Variables for every argument, then one replaced by a mutation. */
function fieldCases(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>): { arb: fc.Arbitrary<GraphQLCase>; examples: GraphQLCase[] } {
  const query = operationFor(kind, field);
  const build = (variables: Record<string, unknown>): GraphQLCase => ({
    req: graphqlRequest({ kind: 'json', value: { query, variables } }),
    refuse: holdsRefusedText(variables) ? 'a variable holds NUL or an unpaired surrogate' : undefined,
  });
  const base = fc.record(Object.fromEntries(field.args.map((a) => [a.name, inputValue(a.type)])));
  if (field.args.length === 0) return { arb: fc.constant(build({})), examples: [] };
  const arb = fc.tuple(base, fc.nat(field.args.length - 1), variableMutation()).map(([vars, i, m]) => build({ ...vars, [field.args[i].name]: expandHuge(m) }));
  const vars = Object.fromEntries(field.args.map((a) => [a.name, minimalValue(a.type)]));
  const examples = ['a\u0000b', 'a\ud800b'].map((bad) => build(withBadText(field, vars, bad)));
  return { arb, examples };
}

/** `vars` with `bad` in the first text the field takes: a String or ID argument, or a String field of an input object. */
function withBadText(field: GraphQLField<unknown, unknown>, vars: Record<string, unknown>, bad: string): Record<string, unknown> {
  for (const arg of field.args) {
    const named = getNamedType(arg.type);
    if (named.name === 'String' || named.name === 'ID') return { ...vars, [arg.name]: isListType(getNullableType(arg.type)) ? [bad] : bad };
    if (isInputObjectType(named)) {
      const texts = Object.values(named.getFields()).filter((f) => getNamedType(f.type).name === 'String' && !isListType(getNullableType(f.type)));
      const text = texts.find((f) => f.name === 'name') ?? texts[0];
      if (text) return { ...vars, [arg.name]: { ...(vars[arg.name] as object), [text.name]: bad } };
    }
  }
  return { ...vars, [field.args[0].name]: bad };
}

async function fuzzRoot(kind: 'query' | 'mutation'): Promise<void> {
  const base = baseUrl();
  const root = kind === 'query' ? schema.getQueryType()! : schema.getMutationType()!;
  const failures: string[] = [];
  const fields = Object.values(root.getFields());
  for (const field of fields) {
    const { arb, examples } = fieldCases(kind, field);
    const found = await runProperty(`${kind} ${field.name}`, arb, examples, async (c) => assertGraphQLSafe(c.req, await send(base, c.req), c.refuse));
    failures.push(...found);
    if (found.some((f) => f.includes('no HTTP answer')) && !(await serverAlive(base))) {
      failures.push(`the server stopped answering /healthz after ${kind} ${field.name}; the remaining fields were not tried`);
      break;
    }
  }
  expect(fields.length).toBeGreaterThanOrEqual(kind === 'query' ? 25 : 20);
  reportFailures(`${kind} root field(s)`, failures);
}

test('every query root field with generated and mutated variables', () => fuzzRoot('query'));
test('every mutation root field with generated and mutated variables', () => fuzzRoot('mutation'));

/** `merchantAccounts { locations { merchantAccounts ... } }`, `depth` levels (cheap on a tenant with no accounts, unless the server has no depth limit at all). */
const depthBomb = (depth: number) => {
  let inner = 'id';
  for (let i = depth; i > 0; i--) inner = `${i % 2 ? 'merchantAccounts' : 'locations'} { id ${inner} }`;
  return `{ ${inner} }`;
};
const json = (value: unknown): BodySpec => ({ kind: 'json', value });
const q = (query: string, extra: Record<string, unknown> = {}) => json({ query, ...extra });

/** Hostile documents and bodies: each with why it must be refused, when it must. */
const STREAM = { 'content-type': 'application/json', accept: 'text/event-stream' };
const STRUCTURAL: Record<string, { body: BodySpec; headers?: Record<string, string>; refuse?: string; path?: string }> = {
  'depth 40': { body: q(depthBomb(40)), refuse: 'the document is 40 levels deep' },
  'introspection depth 30': { body: q(`{ __schema { types { ${'fields { type { '.repeat(15)}name${' } }'.repeat(15)} } } }`), refuse: 'the document is 30+ levels deep' },
  '1,000 aliases': { body: q(`{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: __typename`).join(' ')} }`), refuse: 'the document has 1,000 aliases' },
  '1,000 directives': { body: q(`{ __typename ${'@include(if: true) '.repeat(1000)}}`), refuse: 'a field carries 1,000 directives' },
  '50,000 tokens': { body: q(`{ ${'__typename '.repeat(50_000)}}`), refuse: 'the document has 50,000 tokens' },
  'fragment cycle': { body: q('query { ...A } fragment A on Query { ...B __typename } fragment B on Query { ...A }'), refuse: 'fragments spread each other' },
  'inline NUL literal': { body: q('{ patients(first: 1, sortDirection: ASC, search: "a\\u0000b") { totalCount } }'), refuse: 'a literal holds NUL' },
  'inline surrogate literal': { body: q('{ locations(first: 1, search: "a\\ud800b") { totalCount } }'), refuse: 'a literal holds an unpaired surrogate' },
  'NUL in dashboard name': { body: q('mutation { createDashboard(input: {name: "a\\u0000b"}) { id } }'), refuse: 'a literal holds NUL' },
  'huge literal': { body: q(`{ patients(first: 1, sortDirection: ASC, search: "${'x'.repeat(900_000)}") { totalCount } }`) },
  'batch of 2': { body: json([{ query: '{ __typename }' }, { query: '{ __typename }' }]) },
  'batch of 500': { body: json(Array.from({ length: 500 }, () => ({ query: '{ tenant { id } }' }))) },
  'two operations, no name': { body: q('query A { __typename } query B { __typename }'), refuse: 'the operation to run is not named' },
  'unknown operation name': { body: q('query A { __typename }', { operationName: 'B' }), refuse: 'no operation has that name' },
  'query is a number': { body: json({ query: 1 }), refuse: 'query is not a string' },
  'query is null': { body: json({ query: null }), refuse: 'there is no query' },
  'variables is a string': { body: json({ query: '{ __typename }', variables: 'x' }), refuse: 'variables is not an object' },
  'deep JSON variable': { body: { kind: 'text', text: `{"query":"query($q: JSON!) { executeAnalyticsQuery(query: $q) { data } }","variables":{"q":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}` } },
  'body null': { body: { kind: 'text', text: 'null' }, refuse: 'the body is null' },
  'body array of nulls': { body: json([null, 1]), refuse: 'the batch holds no operations' },
  'body string': { body: json('{ __typename }'), refuse: 'the body is a string' },
  'malformed JSON': { body: { kind: 'text', text: '{"query": "{ __typename }"' }, refuse: 'the body is not JSON' },
  'deep JSON body': { body: { kind: 'deep', depth: 10_000, shape: 'array' }, refuse: 'the body is 10,000 arrays' },
  'text/plain': { body: { kind: 'text', text: '{"query":"{ __typename }"}' }, headers: { 'content-type': 'text/plain' }, refuse: 'text/plain is not a GraphQL media type (CSRF)' },
  'form': { body: { kind: 'text', text: 'query=%7B__typename%7D' }, headers: { 'content-type': 'application/x-www-form-urlencoded' }, refuse: 'a form is not a GraphQL request' },
  'application/graphql': { body: { kind: 'text', text: '{ __typename }' }, headers: { 'content-type': 'application/graphql' } },
  'no content type': { body: { kind: 'bytes', hex: Buffer.from('{"query":"{ __typename }"}').toString('hex') }, headers: {}, refuse: 'there is no media type' },
  'false gzip': { body: q('{ __typename }'), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, refuse: 'the body is not gzip' },
  'false deflate': { body: q('{ __typename }'), headers: { 'content-type': 'application/json', 'content-encoding': 'deflate' }, refuse: 'the body is not deflate' },
  'stream: error text outside Latin-1': { path: '/graphql/stream', headers: STREAM, body: q('subscription { "漢字" }'), refuse: 'the document does not parse' },
  'stream: unknown field': { path: '/graphql/stream', headers: STREAM, body: q('subscription { nope }'), refuse: 'the field does not exist' },
  'stream: false gzip': { path: '/graphql/stream', headers: { ...STREAM, 'content-encoding': 'gzip' }, body: q('subscription { nope }'), refuse: 'the body is not gzip' },
  'charset utf-16': { body: q('{ __typename }'), headers: { 'content-type': 'application/json; charset=utf-16' } },
};

test('hostile documents and bodies on /graphql: errors as JSON, never a 5xx or an INTERNAL_SERVER_ERROR', async () => {
  const base = baseUrl();
  const names = Object.keys(STRUCTURAL);
  const build = (name: string): GraphQLCase & { name: string } => {
    const { body, headers, refuse, path } = STRUCTURAL[name];
    return { name, req: { ...graphqlRequest(body, headers ?? { 'content-type': 'application/json' }), path: path ?? '/graphql' }, refuse };
  };
  const failures: string[] = [];
  for (const name of names) {
    const c = build(name);
    try {
      assertGraphQLSafe(c.req, await send(base, c.req), c.refuse);
    } catch (error) {
      failures.push(`/graphql [${name}]: ${(error as Error).message}`);
      if (!(error as Error).message.includes('no HTTP answer') || (await serverAlive(base))) continue;
      failures.push(`the server stopped answering /healthz after /graphql [${name}]`);
      break;
    }
  }
  reportFailures('hostile /graphql request(s)', failures);
});
