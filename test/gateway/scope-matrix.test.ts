import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { getNamedType, isCompositeType, isNonNullType, type GraphQLSchema } from 'graphql';
import { accessDocPath, servedSchema } from '../../gateway/access/access-doc';
import { ALL_SCOPES, type Scope } from '../../schema/scopes';
import { admin, createTestTenant, type HttpResult, type TestTenant } from '../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';

/**
 * The scope matrix (issue 33): every REST route and every root field of the graph, called with a
 * restricted key of each scope, is allowed or refused exactly as docs/access.md's tables say. The
 * expectations are read from the doc, not from the table the check reads: the doc is what callers
 * are promised (a unit test keeps it generated from that table).
 */

/** The rows of the doc's table whose header row starts with `header`, as cells with backquotes removed. */
function tableRows(doc: string, header: string): string[][] {
  const lines = doc.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`| ${header} |`));
  if (start === -1) throw new Error(`docs/access.md has no table headed "${header}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim().replace(/`/g, '')));
  }
  return rows;
}

/** A document that selects one root field, its required arguments as (unsent) variables: valid, so the check decides before anything runs. */
function documentFor(schema: GraphQLSchema, type: string, field: string): string {
  const root = type === 'Query' ? schema.getQueryType() : type === 'Mutation' ? schema.getMutationType() : schema.getSubscriptionType();
  const definition = root!.getFields()[field];
  const required = definition.args.filter((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined);
  const variables = required.length ? `(${required.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ')})` : '';
  const args = required.length ? `(${required.map((arg) => `${arg.name}: $${arg.name}`).join(', ')})` : '';
  const selection = isCompositeType(getNamedType(definition.type)) ? ' { __typename }' : '';
  return `${type.toLowerCase()}${variables} { ${field}${args}${selection} }`;
}

describe('scope matrix: every REST route and root field against each scope, as docs/access.md says', () => {
  let server: InProcessApp;
  let tenant: TestTenant;
  const keys = new Map<Scope, string>();
  const doc = readFileSync(accessDocPath(), 'utf8');
  const schema = servedSchema();

  beforeAll(async () => {
    server = await startInProcessApp({ RATE_LIMIT_PER_WINDOW: '1000000' });
    tenant = await createTestTenant('Scope matrix', server.url);
    for (const scope of ALL_SCOPES) {
      const issued = await admin(`/tenants/${tenant.tenantId}/api-keys`, { method: 'POST', body: JSON.stringify({ name: scope, scopes: [scope] }) }, server.url);
      expect(issued.status).toBe(201);
      expect(issued.body.apiKey).toMatch(/^hpr_/);
      keys.set(scope, issued.body.apiKey);
    }
  });
  afterAll(() => server.close());

  const headersOf = (apiKey: string) => ({ TENANT: tenant.tenantId, 'API-KEY': apiKey, 'content-type': 'application/json' });

  /** Sends a request and reads its status and body, without waiting for a stream to end. */
  async function send(url: string, init: RequestInit): Promise<HttpResult> {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(20_000) });
    if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      await response.body?.cancel();
      return { status: response.status, headers: response.headers, body: null, text: '' };
    }
    const text = await response.text();
    // An export answers a file (NDJSON, CSV), not one JSON document.
    const json = (response.headers.get('content-type') ?? '').startsWith('application/json');
    return { status: response.status, headers: response.headers, body: text && json ? JSON.parse(text) : null, text };
  }

  const restRows = tableRows(doc, 'Method').filter(([, , scope]) => scope !== 'public');

  it.each(restRows)('%s %s needs %s', async (method, path, needed) => {
    const url = `${server.url}${path.replace(/\{[^}]+\}/g, () => randomUUID())}`;
    const body = method === 'GET' || method === 'DELETE' ? undefined : '{}';
    const full = await send(url, { method, headers: headersOf(tenant.apiKey), body });
    expect(full.status).not.toBe(403);
    for (const scope of ALL_SCOPES) {
      const res = await send(url, { method, headers: headersOf(keys.get(scope)!), body });
      if (needed === 'any' || needed === scope) expect({ scope, status: res.status }).not.toEqual({ scope, status: 403 });
      else expect({ scope, status: res.status, body: res.body }).toEqual({ scope, status: 403, body: { detail: `Missing scope "${needed}"` } });
    }
  });

  const fieldRows = tableRows(doc, 'Root field');

  it.each(fieldRows)('%s needs %s', async (name, needed) => {
    const [type, field] = name.split('.');
    const query = documentFor(schema, type, field);
    const url = `${server.url}${type === 'Subscription' ? '/graphql/stream' : '/graphql'}`;
    const accept = type === 'Subscription' ? 'text/event-stream' : 'application/json';
    const call = (apiKey: string) => send(url, { method: 'POST', headers: { ...headersOf(apiKey), accept }, body: JSON.stringify({ query }) });
    expect((await call(tenant.apiKey)).status).not.toBe(403);
    for (const scope of ALL_SCOPES) {
      const res = await call(keys.get(scope)!);
      if (needed === 'any' || needed === scope) {
        expect({ scope, status: res.status }).not.toEqual({ scope, status: 403 });
        expect(res.body?.errors?.[0]?.extensions?.code).not.toBe('FORBIDDEN');
      } else {
        expect({ scope, status: res.status, error: res.body?.errors?.[0] }).toEqual({
          scope,
          status: 403,
          error: { message: `Missing scope "${needed}"`, extensions: { code: 'FORBIDDEN', scope: needed } },
        });
      }
    }
  });

  it('the doc lists every route of the table and every root field of the graph', () => {
    const fields = fieldRows.map(([name]) => name);
    for (const type of ['Query', 'Mutation', 'Subscription'] as const) {
      const root = type === 'Query' ? schema.getQueryType() : type === 'Mutation' ? schema.getMutationType() : schema.getSubscriptionType();
      for (const field of Object.keys(root!.getFields())) expect(fields).toContain(`${type}.${field}`);
    }
  });
});
