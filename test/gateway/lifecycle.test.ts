import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { suiteWorkDir } from '../utils/work-dir';
import { readRecordedServer } from '../../gateway/database/embedded-postgres';
import { startFakeLlmServer } from '../utils/fake-llm-server';
import { eventually } from '../utils/eventually';
import { spawnChild, START_LIMIT_MS } from '../utils/children';

const MAIN = join(__dirname, '../../dist/gateway/main.js');

/** Runs `npm start`'s entry point on the fresh-machine path: no DATABASE_URL, embedded PostgreSQL. */
function startMain(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawnChild(process.execPath, [MAIN], { env: { ...inherited, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

function waitForOutput(read: () => string, pattern: RegExp, timeoutMs = START_LIMIT_MS): Promise<RegExpMatchArray> {
  return eventually(() => read().match(pattern), { what: `${pattern} in the output`, timeoutMs, intervalMs: 100 });
}

describe('process lifecycle on the embedded database', () => {
  const work = suiteWorkDir('hpp-life-');

  it('first start prints a demo tenant; SIGTERM drains an open stream and stops PostgreSQL', async () => {
    const dataDir = join(work(), 'data');
    // A model that never finishes keeps the migration stream below open until the shutdown.
    const llm = await startFakeLlmServer();
    llm.mode = 'slow';
    // A grace far longer than the test waits for the exit: an open stream that held the shutdown would fail it.
    const app = startMain({ PORT: '0', DATA_DIR: dataDir, PUBLIC_URL: 'http://public.example', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake', SHUTDOWN_GRACE_SECONDS: '600' });
    let stream: Response | undefined;
    try {
      const url = (await waitForOutput(app.output, /is listening on (http:\/\/127\.0\.0\.1:\d+)/))[1];
      const tenantId = (await waitForOutput(app.output, /TENANT: +(\S+)/))[1];
      const apiKey = (await waitForOutput(app.output, /API-KEY: +(\S+)/))[1];
      expect(app.output()).toContain('http://public.example/docs');
      expect(app.output()).toContain(`curl -H 'TENANT: ${tenantId}' -H 'API-KEY: ${apiKey}' http://public.example/tenant/public`);
      // The demo tenant's owner signs in with the printed password, and sees what the key sees.
      const password = (await waitForOutput(app.output, /password: +(\S+)/))[1];
      const signedIn = await fetch(`${url}/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tenantId, email: 'demo@example.com', password }) });
      expect(signedIn.status).toBe(200);
      expect(((await signedIn.json()) as { user: { role: string } }).user.role).toBe('owner');
      expect(readRecordedServer(dataDir)).not.toBeNull();
      const pub = await fetch(`${url}/tenant/public`, { headers: { TENANT: tenantId, 'API-KEY': apiKey } });
      expect(((await pub.json()) as { name: string }).name).toBe('Demo Clinic');
      // A long subscription is open while the process is told to stop: a demo template's migration.
      const templates = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { TENANT: tenantId, 'API-KEY': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ noteTemplates { nodes { id questions { id isLegacy } } } }' }),
      }).then((r) => r.json() as Promise<any>);
      const template = templates.data.noteTemplates.nodes[0];
      const legacy = template.questions.find((q: { isLegacy: boolean }) => q.isLegacy);
      stream = await fetch(`${url}/notes/templates/${template.id}/questions/${legacy.id}/migrate`, { method: 'POST', headers: { TENANT: tenantId, 'API-KEY': apiKey } });
      expect(stream.status).toBe(200);
    } finally {
      app.child.kill('SIGTERM');
    }
    // Within a fraction of the grace: the open stream was cut, not waited for.
    await eventually(() => app.child.exitCode !== null, { what: 'the exit, well within the 600 s grace', timeoutMs: 120_000, intervalMs: 100 });
    expect(await app.exited).toBe(0);
    await stream!.text().catch(() => undefined);
    expect(readRecordedServer(dataDir)).toBeNull();
    // The shutdown cut the stream, and with it the model request.
    await llm.requests[0].finished;
    expect(llm.requests[0].aborted).toBe(true);
    await llm.close();
  }, START_LIMIT_MS + 180_000);

  it('SIGTERM lets a slow request finish beyond 2 s and the queries of abandoned ones run before the database closes', async () => {
    const dataDir = join(work(), 'drain');
    // Two connections per pool (background work may hold one): of four requests blocked on a lock, two or more wait for a connection.
    const app = startMain({ PORT: '0', DATA_DIR: dataDir, DB_POOL_MAX: '2', SHUTDOWN_GRACE_SECONDS: '20' });
    const url = (await waitForOutput(app.output, /is listening on (http:\/\/127\.0\.0\.1:\d+)/))[1];
    const headers = { TENANT: (await waitForOutput(app.output, /TENANT: +(\S+)/))[1], 'API-KEY': (await waitForOutput(app.output, /API-KEY: +(\S+)/))[1] };
    // Authenticated once, so the key is cached and the requests below only wait on the tenant row.
    expect((await fetch(`${url}/tenant/public`, { headers })).status).toBe(200);
    const db = new Client({ connectionString: readRecordedServer(dataDir)!.url });
    await db.connect();
    try {
      await db.query('begin');
      await db.query('lock table tenant.tenants in access exclusive mode');
      const waitingOnLock = async () => (await db.query(`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and pid <> pg_backend_pid()`)).rows[0].n;
      // The live request first, and in the database before anything else happens, so the shutdown finds it in flight.
      const live = fetch(`${url}/tenant/public`, { headers }).then(async (r) => ({ status: r.status, body: (await r.json()) as { name?: string } }));
      await eventually(async () => (await waitingOnLock()) >= 1, { what: 'the live request waiting on the lock' });
      const leaving = new AbortController();
      const abandoned = Array.from({ length: 3 }, () => fetch(`${url}/tenant/public`, { headers, signal: leaving.signal }).catch(() => 'aborted'));
      // Time for them to reach the pool, where at least one waits for a connection the live request holds.
      await sleep(500);
      leaving.abort();
      expect(await Promise.all(abandoned)).toEqual(['aborted', 'aborted', 'aborted']);
      app.child.kill('SIGTERM');
      // Longer than the fixed 2 s cut this shutdown used to make.
      await sleep(2_500);
      expect(app.child.exitCode).toBeNull();
      await db.query('commit');
      expect(await live).toEqual({ status: 200, body: expect.objectContaining({ name: 'Demo Clinic' }) });
    } finally {
      app.child.kill('SIGTERM');
      await db.end();
    }
    expect(await app.exited).toBe(0);
    // No query was aborted under a request, so nothing was logged as failed.
    expect(app.output()).not.toMatch(/"level":50/);
    expect(readRecordedServer(dataDir)).toBeNull();
  }, START_LIMIT_MS + 120_000);

  it('explains in one paragraph, naming DATABASE_URL, when the embedded database cannot start', async () => {
    const locked = join(work(), 'locked');
    mkdirSync(join(locked, 'inner'), { recursive: true });
    chmodSync(locked, 0o700);
    const app = startMain({ PORT: '0', DATA_DIR: join(locked, 'inner', 'data') });
    expect(await app.exited).toBe(1);
    expect(app.output()).toContain('DATABASE_URL');
    expect(app.output()).not.toMatch(/^\s+at /m);
  }, START_LIMIT_MS);
});
