import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { Client } from 'pg';
import { spawnChild, START_LIMIT_MS } from '../utils/children';
import { watchOutput } from '../utils/watch-output';
import { createTestTenant, request, type TestTenant } from '../utils/e2e';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';

const SECRET = 'subgraph-replicas-secret-0123456789';
const NOTES_MAIN = join(__dirname, '..', '..', 'dist', 'subgraphs', 'notes', 'main.js');
// No subgraph listens here: the analytics subgraph has no live replica at all.
const CLOSED = 'http://127.0.0.1:9';

const CREATE = 'mutation($i: CreateNoteTemplateInput!) { createNoteTemplate(input: $i) { id name } }';
const READ = 'query($id: ID!) { noteTemplate(id: $id) { id name } }';

/** A notes subgraph service, run from dist/ as an operator runs it, on a free port. */
async function startNotesReplica(): Promise<{ child: ChildProcess; url: string }> {
  const { DATABASE_URL } = process.env;
  const child = spawnChild(process.execPath, [NOTES_MAIN], {
    env: { PATH: process.env.PATH, DATABASE_URL, INTERNAL_SECRET: SECRET, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = (await watchOutput(child).waitFor(/"msg":"listening","port":(\d+)/))[1];
  return { child, url: `http://127.0.0.1:${port}` };
}

/** How many of the tenant's templates have this name (whether a mutation ran). */
async function templatesNamed(tenantId: string, name: string): Promise<number> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query('select count(*)::int as n from notes.note_templates where tenant_id = $1 and name = $2', [tenantId, name])).rows[0].n;
  } finally {
    await client.end();
  }
}

/**
 * Distributed mode with SUBGRAPH_NOTES_URL listing two replicas (docs/operations.md, Subgraph
 * replicas): one is SIGKILLed; queries keep answering from the other, a mutation sent to the dead
 * one is a 503 that was not sent again anywhere. A subgraph with no live replica is a 503 with
 * Retry-After on REST and on /graphql.
 */
describe('subgraph replicas (distributed mode)', () => {
  let replicas: { child: ChildProcess; url: string }[];
  let gateway: InProcessApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    replicas = await Promise.all([startNotesReplica(), startNotesReplica()]);
    gateway = await startInProcessApp({
      MODE: 'distributed',
      INTERNAL_SECRET: SECRET,
      SUBGRAPH_NOTES_URL: replicas.map((r) => r.url).join(','),
      SUBGRAPH_TENANT_URL: CLOSED,
      SUBGRAPH_BILLING_URL: CLOSED,
      SUBGRAPH_ANALYTICS_URL: CLOSED,
      SUBGRAPH_TIMEOUT_MS: '5000',
    });
    tenant = await createTestTenant('Replica Clinic', gateway.url);
  }, START_LIMIT_MS + 30_000);
  afterAll(() => gateway?.close());

  const graphql = (query: string, variables: Record<string, unknown>) =>
    request(`${gateway.url}/graphql`, { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });

  it('queries keep answering after one replica is killed; a mutation sent to it is a 503 and runs nowhere', async () => {
    const created = await graphql(CREATE, { i: { name: 'Before the kill' } });
    expect(created.status).toBe(200);
    const id = created.body.data.createNoteTemplate.id;
    // Both replicas answer in turn while both live.
    for (let i = 0; i < 4; i++) expect((await graphql(READ, { id })).body).toEqual({ data: { noteTemplate: { id, name: 'Before the kill' } } });

    replicas[1]!.child.kill('SIGKILL');
    await new Promise((resolve) => replicas[1]!.child.once('exit', resolve));

    // Round-robin: of two mutations in a row, one is routed to the dead replica.
    const names = [`after-kill-${randomUUID()}`, `after-kill-${randomUUID()}`];
    const answers = [];
    for (const name of names) answers.push(await graphql(CREATE, { i: { name } }));
    const refused = answers.findIndex((answer) => answer.status === 503);
    expect(refused).toBeGreaterThanOrEqual(0);
    const answer = answers[refused]!;
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(answer.body).toEqual({ data: null, errors: [expect.objectContaining({ message: 'Subgraph unavailable', extensions: { code: 'SERVICE_UNAVAILABLE', retryAfter: 5 } })] });
    // Not retried on the live replica: the template it asked for was never created.
    expect(await templatesNamed(tenant.tenantId, names[refused]!)).toBe(0);
    expect(answers[1 - refused]!.status).toBe(200);
    expect(await templatesNamed(tenant.tenantId, names[1 - refused]!)).toBe(1);

    // Every query answers, whichever replica its turn names first.
    for (let i = 0; i < 6; i++) {
      const read = await graphql(READ, { id });
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ data: { noteTemplate: { id, name: 'Before the kill' } } });
    }
  });

  it('a subgraph with no replica answering is a 503 with Retry-After on REST and on /graphql', async () => {
    const rest = await request(`${gateway.url}/analytics/dashboards`, { headers: tenant.headers });
    expect(rest.status).toBe(503);
    expect(rest.headers.get('retry-after')).toBe('5');
    expect(rest.body).toEqual({ detail: 'Subgraph unavailable' });

    replicas[0]!.child.kill('SIGKILL');
    await new Promise((resolve) => replicas[0]!.child.once('exit', resolve));
    const read = await graphql(READ, { id: randomUUID() });
    expect(read.status).toBe(503);
    expect(read.headers.get('retry-after')).toBe('5');
    expect(read.body.errors[0]).toMatchObject({ message: 'Subgraph unavailable', extensions: { code: 'SERVICE_UNAVAILABLE', retryAfter: 5 } });
  });
});
