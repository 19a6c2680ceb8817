import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { clusterHolder, isAlive, readPostmasterPid } from '../../gateway/database/embedded-postgres-orphan';
import {
  readRecordedServer,
  startEmbeddedPostgres,
  type EmbeddedPostgresHandle,
} from '../../gateway/database/embedded-postgres';
import { spawnChild } from '../utils/children';

jest.setTimeout(60_000);

const DIST_MODULE = path.join(__dirname, '../../dist/gateway/database/embedded-postgres.js');

const made: string[] = [];
const running: EmbeddedPostgresHandle[] = [];

/** A fresh directory the `postgres` user can enter: mkdtemp makes it 0700. */
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-pg-'));
  fs.chmodSync(dir, 0o755);
  made.push(dir);
  return dir;
}

async function start(options: Parameters<typeof startEmbeddedPostgres>[0]): Promise<EmbeddedPostgresHandle> {
  const handle = await startEmbeddedPostgres(options);
  running.push(handle);
  return handle;
}

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  await Promise.all(running.map((handle) => handle.stop()));
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

test('initialises a fresh data dir, then restarts on it keeping data and port', async () => {
  const dataDir = path.join(tempDir(), 'data');

  let t = Date.now();
  const first = await start({ dataDir });
  console.log(`first start (initialise + start): ${Date.now() - t} ms`);
  const secret = fs.readFileSync(path.join(dataDir, 'embedded-postgres.secret'), 'utf8').trim();
  expect(first.url).toBe(`postgres://postgres:${encodeURIComponent(secret)}@127.0.0.1:${first.port}/postgres`);
  expect(await query(first.url, 'select 1 as one')).toEqual([{ one: 1 }]);
  expect(readRecordedServer(dataDir)).toEqual({ port: first.port, pid: process.pid, url: first.url });
  await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(/postmaster\.pid.*DATABASE_URL/);

  await query(first.url, `create table kept (note text); insert into kept values ('survives')`);
  await first.stop();
  expect(readRecordedServer(dataDir)).toBeNull();
  expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'embedded-postgres.json'), 'utf8')).port).toBe(first.port);
  const versionWritten = fs.statSync(path.join(dataDir, 'postgres', 'PG_VERSION')).mtimeMs;

  t = Date.now();
  const second = await start({ dataDir });
  console.log(`second start (no initialise): ${Date.now() - t} ms`);
  expect(second.port).toBe(first.port);
  expect(fs.statSync(path.join(dataDir, 'postgres', 'PG_VERSION')).mtimeMs).toBe(versionWritten);
  expect(second.url).toBe(first.url);
  expect(await query(second.url, 'select note from kept')).toEqual([{ note: 'survives' }]);
  await second.stop();
});

test('the superuser password is a secret of the data dir, readable by this user only; "postgres" is refused', async () => {
  const dataDir = tempDir();
  const handle = await start({ dataDir });
  const file = path.join(dataDir, 'embedded-postgres.secret');
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(fs.statSync(file).uid).toBe(process.getuid!());
  const secret = fs.readFileSync(file, 'utf8').trim();
  expect(secret).not.toBe('postgres');
  expect(secret.length).toBeGreaterThanOrEqual(32);
  await expect(query(`postgres://postgres:postgres@127.0.0.1:${handle.port}/postgres`, 'select 1')).rejects.toMatchObject({ code: '28P01' });
  // The role stores a SCRAM verifier, never the secret itself.
  const [{ stored }] = await query<{ stored: string }>(handle.url, `select rolpassword as stored from pg_authid where rolname = 'postgres'`);
  expect(stored).toMatch(/^SCRAM-SHA-256\$4096:/);
  expect(stored).not.toContain(secret);
  await handle.stop();
  // A loosened mode (a copy restored from a backup) is tightened again on the next start.
  fs.chmodSync(file, 0o644);
  const again = await start({ dataDir });
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(again.url).toBe(handle.url);
  await again.stop();
});

test('a data dir from before the secret (fixed password "postgres") keeps working and gets a secret', async () => {
  const dataDir = tempDir();
  const file = path.join(dataDir, 'embedded-postgres.secret');
  // The state the former code left: the role's password is "postgres" and there is no secret file.
  const old = await start({ dataDir });
  await query(old.url, `alter role postgres password 'postgres'; create table kept (note text); insert into kept values ('old')`);
  await old.stop();
  fs.rmSync(file);
  const legacyUrl = `postgres://postgres:postgres@127.0.0.1:${old.port}/postgres`;

  const upgraded = await start({ dataDir });
  const secret = fs.readFileSync(file, 'utf8').trim();
  expect(secret).not.toBe('postgres');
  expect(upgraded.url).toContain(encodeURIComponent(secret));
  expect(await query(upgraded.url, 'select note from kept')).toEqual([{ note: 'old' }]);
  await expect(query(legacyUrl, 'select 1')).rejects.toMatchObject({ code: '28P01' });
  await upgraded.stop();
});

test('the record of a dead server is no running server, and a pid reused by another program is left alone', async () => {
  const dataDir = tempDir();
  const clusterDir = path.join(dataDir, 'postgres');
  fs.mkdirSync(clusterDir);
  // A long-gone owner, and a lock file whose pid now belongs to an unrelated process.
  const unrelated = spawnChild('sleep', ['60'], { stdio: 'ignore' });
  const gone = spawnChild('true', []);
  await new Promise((resolve) => gone.once('exit', resolve));
  try {
    fs.writeFileSync(path.join(dataDir, 'embedded-postgres.json'), JSON.stringify({ port: 1, pid: gone.pid }));
    fs.writeFileSync(path.join(clusterDir, 'postmaster.pid'), `${unrelated.pid}\n${clusterDir}\n`);
    expect(readRecordedServer(dataDir)).toBeNull();
    expect(clusterHolder(clusterDir, gone.pid)).toEqual({ kind: 'none' });
    expect(unrelated.exitCode).toBeNull();
    expect(isAlive(unrelated.pid!)).toBe(true);
  } finally {
    unrelated.kill();
  }
});

test('persistent: false removes the cluster on stop', async () => {
  const dataDir = tempDir();
  const handle = await start({ dataDir, persistent: false });
  expect(await query(handle.url, 'select 1 as one')).toEqual([{ one: 1 }]);
  await handle.stop();
  expect(fs.existsSync(path.join(dataDir, 'postgres'))).toBe(false);
});

test('a data dir under a parent "postgres" cannot enter fails with a clear error', async () => {
  const parent = path.join(tempDir(), 'private');
  fs.mkdirSync(parent, { mode: 0o700 });
  fs.chmodSync(parent, 0o700);
  const attempt = startEmbeddedPostgres({ dataDir: path.join(parent, 'data') });
  await expect(attempt).rejects.toThrow(`chmod o+x ${parent}`);
  await expect(attempt).rejects.toThrow(/DATABASE_URL/);
});

test('an explicit port that is taken fails with a clear error', async () => {
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const { port } = blocker.address() as net.AddressInfo;
  try {
    const attempt = startEmbeddedPostgres({ dataDir: tempDir(), port });
    await expect(attempt).rejects.toThrow(`port ${port} on 127.0.0.1 is already in use`);
    await expect(attempt).rejects.toThrow(/DATABASE_URL/);
  } finally {
    await new Promise((resolve) => blocker.close(resolve));
  }
});

/** A data dir whose cluster postgres exits on at once: PG_VERSION skips initialise(), there is no postgresql.conf. */
function brokenDataDir(): string {
  const dataDir = tempDir();
  fs.mkdirSync(path.join(dataDir, 'postgres'), { mode: 0o700 });
  fs.writeFileSync(path.join(dataDir, 'postgres', 'PG_VERSION'), '18\n');
  return dataDir;
}

test('a postgres that exits during start fails the start at once; a later start on the same data dir works', async () => {
  const dataDir = brokenDataDir();
  const t = Date.now();
  await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(/Cannot start the embedded PostgreSQL in .*postgresql\.conf.*DATABASE_URL/);
  // Far below the 30 s start timeout: the failure is postgres' exit, not waited out.
  expect(Date.now() - t).toBeLessThan(10_000);

  fs.rmSync(path.join(dataDir, 'postgres'), { recursive: true });
  const handle = await start({ dataDir });
  expect(await query(handle.url, 'select 1 as one')).toEqual([{ one: 1 }]);
  await handle.stop();
  expect(readRecordedServer(dataDir)).toBeNull();
});

test("after a failed start, the package's exit hook does not hold the process", async () => {
  // The hook stops every instance the package made, the failed one included, when the process ends;
  // were that stop to wait on the exited postgres, async-exit-hook would keep the process 10 s.
  const script = `require(${JSON.stringify(DIST_MODULE)}).startEmbeddedPostgres({ dataDir: ${JSON.stringify(brokenDataDir())} })
    .then(() => console.log('started'), (err) => console.log('failed:', err.message));`;
  const child = spawnChild(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  let failedAt = 0;
  child.stdout!.on('data', (chunk) => {
    output += chunk;
    failedAt ||= output.includes('failed:') ? Date.now() : 0;
  });
  await new Promise((resolve) => child.once('exit', resolve));
  expect(output).toContain('failed: Cannot start the embedded PostgreSQL');
  expect(Date.now() - failedAt).toBeLessThan(5_000);
});

test('stop() returns when postgres has died under a running server', async () => {
  const dataDir = tempDir();
  const handle = await start({ dataDir });
  const postmaster = readPostmasterPid(path.join(dataDir, 'postgres'))!;
  process.kill(postmaster, 'SIGKILL');
  for (const deadline = Date.now() + 10_000; isAlive(postmaster) && Date.now() < deadline; ) await sleep(50);
  expect(isAlive(postmaster)).toBe(false);
  const t = Date.now();
  await handle.stop();
  expect(Date.now() - t).toBeLessThan(1_000);
  expect(readRecordedServer(dataDir)).toBeNull();
});
