import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import {
  readRecordedServer,
  startEmbeddedPostgres,
  type EmbeddedPostgresHandle,
} from '../../gateway/embedded-postgres';

jest.setTimeout(60_000);

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
  expect(first.url).toBe(`postgres://postgres:postgres@127.0.0.1:${first.port}/postgres`);
  expect(await query(first.url, 'select 1 as one')).toEqual([{ one: 1 }]);
  expect(readRecordedServer(dataDir)).toEqual({ port: first.port, pid: process.pid });
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
  expect(await query(second.url, 'select note from kept')).toEqual([{ note: 'survives' }]);
  await second.stop();
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
