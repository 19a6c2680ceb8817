import { execFile, type ChildProcess } from 'node:child_process';
import { copyFileSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { readRecordedServer } from '../../gateway/database/embedded-postgres';
import { clusterHolder, isAlive, readPostmasterPid } from '../../gateway/database/embedded-postgres-orphan';
import { suiteWorkDir } from '../utils/work-dir';
import { eventually } from '../utils/eventually';
import { spawnChild, START_LIMIT_MS } from '../utils/children';

const ROOT = join(__dirname, '../..');
const MAIN = join(ROOT, 'dist/gateway/main.js');
const CLI = join(ROOT, 'dist/gateway/admin/cli.js');
const OPERATOR_TOKEN = 'crash-test-operator-token';
const operator = { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' };

type Server = { child: ChildProcess; output: () => string; exited: Promise<unknown> };

/** Spawns a command on the fresh-machine path (no DATABASE_URL: the embedded PostgreSQL) and collects its output. */
function launch(command: string, args: string[], env: Record<string, string>, cwd = ROOT): Server {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawnChild(command, args, { cwd, env: { ...inherited, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', DEMO_TENANT: '0', OPERATOR_TOKEN, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { child, output: () => output, exited };
}

/** Waits for a probe of the spawned servers' state; a cold start of the embedded database takes a while. */
const until = <T>(what: string, probe: () => T | undefined | null | false, timeoutMs = START_LIMIT_MS) => eventually(probe, { what, timeoutMs, intervalMs: 100 }) as Promise<T>;

const listening = (server: Server, pattern = /is listening on (http:\/\/127\.0\.0\.1:\d+)/) =>
  until(`${pattern} in:\n${server.output()}`, () => server.output().match(pattern)?.[1]);

/** Creates a tenant and issues keys through the API; what was acknowledged (2xx) is returned. */
async function acknowledgedWrites(url: string): Promise<{ tenantId: string; keyIds: string[] }> {
  const created = await fetch(`${url}/admin/tenants`, { method: 'POST', headers: operator, body: JSON.stringify({ name: 'Crash Clinic' }) });
  expect(created.status).toBe(201);
  const tenantId = ((await created.json()) as { tenant: { id: string } }).tenant.id;
  const keyIds: string[] = [];
  for (let i = 0; i < 5; i++) {
    const issued = await fetch(`${url}/admin/tenants/${tenantId}/api-keys`, { method: 'POST', headers: operator, body: JSON.stringify({ name: `key-${i}` }) });
    expect(issued.status).toBe(201);
    keyIds.push(((await issued.json()) as { id: string }).id);
  }
  return { tenantId, keyIds };
}

async function keyIdsOf(url: string, tenantId: string): Promise<string[]> {
  const listed = await fetch(`${url}/admin/tenants/${tenantId}/api-keys`, { headers: operator });
  expect(listed.status).toBe(200);
  return ((await listed.json()) as { id: string }[]).map((key) => key.id);
}

/** SIGKILLs a server and checks its PostgreSQL is left behind, orphaned: the state a crash leaves. */
async function crash(server: Server, dataDir: string): Promise<number> {
  const postgresPid = readPostmasterPid(join(dataDir, 'postgres'))!;
  expect(isAlive(postgresPid)).toBe(true);
  server.child.kill('SIGKILL');
  await server.exited;
  // Cluster workers leave once their primary is gone; PostgreSQL does not.
  await sleep(500);
  expect(isAlive(postgresPid)).toBe(true);
  expect(readRecordedServer(dataDir)).toBeNull();
  return postgresPid;
}

function readRecord(dataDir: string): { pid?: number } {
  try {
    return JSON.parse(readFileSync(join(dataDir, 'embedded-postgres.json'), 'utf8'));
  } catch {
    return {};
  }
}

/** Waits for a server to exit; a hang fails with what the server printed instead of the test's timeout. */
async function exitOf(server: Server, timeoutMs = 60_000): Promise<number | null> {
  await until(`the server to exit; it printed:\n${server.output().slice(-3000)}`, () => server.child.exitCode !== null || server.child.signalCode !== null, timeoutMs);
  await server.exited;
  return server.child.exitCode;
}

async function stop(server: Server): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
  await server.exited;
}

describe('a crash heals itself on the next start', () => {
  const servers: Server[] = [];
  const dataDirs: string[] = [];
  // Declared before suiteWorkDir, so it runs before the folder is removed: whatever a failed test
  // left running (a node behind npm, an orphan) is stopped first.
  afterAll(async () => {
    await Promise.all(servers.map(stop));
    for (const dataDir of dataDirs) {
      const clusterDir = join(dataDir, 'postgres');
      const record = readRecord(dataDir);
      const holder = clusterHolder(clusterDir, record.pid);
      if (holder.kind === 'owned') process.kill(record.pid!, 'SIGTERM');
      if (holder.kind === 'orphan') process.kill(holder.postmasterPid, 'SIGINT');
      if (holder.kind !== 'none') await until('leftovers to stop', () => clusterHolder(clusterDir, record.pid).kind === 'none', 30_000).catch(() => undefined);
    }
  });
  const work = suiteWorkDir('hpp-crash-');

  it('after SIGKILL the next start stops the orphaned PostgreSQL, serves every acknowledged write, and the admin CLI works beside it', async () => {
    const dataDir = join(work(), 'single');
    dataDirs.push(dataDir);
    const first = launch(process.execPath, [MAIN], { DATA_DIR: dataDir });
    servers.push(first);
    const writes = await acknowledgedWrites(await listening(first));
    const orphan = await crash(first, dataDir);

    const second = launch(process.execPath, [MAIN], { DATA_DIR: dataDir });
    servers.push(second);
    const url = await listening(second);
    expect(isAlive(orphan)).toBe(false);
    expect(second.output()).toContain(`stopping the embedded PostgreSQL (pid ${orphan})`);
    expect(await keyIdsOf(url, writes.tenantId)).toEqual(expect.arrayContaining(writes.keyIds));
    expect(readRecordedServer(dataDir)?.pid).toBe(second.child.pid);

    // `npm run admin` beside the running server reaches its database with the data dir's secret.
    const { DATABASE_URL: _ignored, ...env } = process.env;
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'list-keys', writes.tenantId], { env: { ...env, DATA_DIR: dataDir } });
    expect((JSON.parse(stdout) as { id: string }[]).map((key) => key.id)).toEqual(expect.arrayContaining(writes.keyIds));
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    await stop(second);
    expect(second.child.exitCode).toBe(0);
    expect(readPostmasterPid(join(dataDir, 'postgres'))).toBeNull();
  }, START_LIMIT_MS + 180_000);

  it('WEB_CONCURRENCY=2: after SIGKILL of the primary the next primary stops the orphan and serves every acknowledged write', async () => {
    const dataDir = join(work(), 'cluster');
    dataDirs.push(dataDir);
    const env = { DATA_DIR: dataDir, WEB_CONCURRENCY: '2', LOG_LEVEL: 'info' };
    const first = launch(process.execPath, [MAIN], env);
    servers.push(first);
    const firstUrl = await listening(first);
    await listening(first, /"msg":"(all workers listening)"/);
    const writes = await acknowledgedWrites(firstUrl);
    const orphan = await crash(first, dataDir);

    const second = launch(process.execPath, [MAIN], env);
    servers.push(second);
    const url = await listening(second);
    await listening(second, /"msg":"(all workers listening)"/);
    expect(isAlive(orphan)).toBe(false);
    expect(second.output()).toContain(`stopping the embedded PostgreSQL (pid ${orphan})`);
    expect(await keyIdsOf(url, writes.tenantId)).toEqual(expect.arrayContaining(writes.keyIds));
    await stop(second);
    expect(second.child.exitCode).toBe(0);
    expect(readPostmasterPid(join(dataDir, 'postgres'))).toBeNull();
  }, START_LIMIT_MS + 240_000);

  it('SIGTERM to `npm start`, as a process manager sends it, stops node and PostgreSQL', async () => {
    // A project of its own (the real package.json, the sources linked): the start script's build
    // writes there, not into the dist/ that other suites run from.
    const project = join(work(), 'project');
    const dataDir = join(work(), 'npm-data');
    dataDirs.push(dataDir);
    await promisify(execFile)('mkdir', ['-p', project]);
    for (const file of ['package.json', '.swcrc']) copyFileSync(join(ROOT, file), join(project, file));
    for (const dir of ['gateway', 'platform', 'subgraphs', 'schema', 'rest-bridge', 'bench', 'console', 'node_modules']) symlinkSync(join(ROOT, dir), join(project, dir));
    expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).scripts.start).toMatch(/^npm run build && exec node /);

    const npm = launch('npm', ['start'], { DATA_DIR: dataDir }, project);
    servers.push(npm);
    await listening(npm);
    const node = await until('the record of the server', () => readRecordedServer(dataDir));
    const postgresPid = readPostmasterPid(join(dataDir, 'postgres'))!;
    expect(node.pid).not.toBe(npm.child.pid);
    expect(isAlive(postgresPid)).toBe(true);

    npm.child.kill('SIGTERM');
    await exitOf(npm);
    await until('node and PostgreSQL to stop', () => !isAlive(node.pid) && !isAlive(postgresPid), 30_000);
    expect(readPostmasterPid(join(dataDir, 'postgres'))).toBeNull();
    expect(readRecord(dataDir).pid).toBeUndefined();
    // npm's own build before the server starts is slow on a loaded machine.
  }, START_LIMIT_MS + 240_000);

  it('SIGTERM at any moment of start-up (mid-migration, or as soon as the URL is printed) stops what has started and exits 0', async () => {
    const dataDir = join(work(), 'early-stop');
    dataDirs.push(dataDir);
    // The moments: a migration under way on the fresh database, then the line a test or a deploy
    // script waits for, after which the webhook workers still start.
    for (const moment of [/(Processing 'Migration)/, /is listening on (http:\/\/127\.0\.0\.1:\d+)/]) {
      const server = launch(process.execPath, [MAIN], { DATA_DIR: dataDir, LOG_LEVEL: 'info' });
      servers.push(server);
      await listening(server, moment);
      const postgresPid = readPostmasterPid(join(dataDir, 'postgres'));
      server.child.kill('SIGTERM');
      expect(await exitOf(server)).toBe(0);
      expect(server.output()).toContain('"msg":"shutting down"');
      expect(server.output()).not.toMatch(/Unhandled 'error' event|terminating connection due to administrator command/);
      if (postgresPid) expect(isAlive(postgresPid)).toBe(false);
      expect(readPostmasterPid(join(dataDir, 'postgres'))).toBeNull();
      expect(readRecord(dataDir).pid).toBeUndefined();
    }
  }, START_LIMIT_MS + 180_000);
});
