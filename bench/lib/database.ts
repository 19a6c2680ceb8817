import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../../gateway/database/embedded-postgres';

/** The PostgreSQL the benchmarked servers share, and how to let go of it. */
export interface BenchDatabase {
  url: string;
  /** How it was obtained, for the results: `DATABASE_URL` or `embedded`. */
  source: 'DATABASE_URL' | 'embedded';
  stop(): Promise<void>;
}

/**
 * DATABASE_URL when set; otherwise a throw-away embedded PostgreSQL in a temp directory, so a
 * benchmark never touches the developer's `.data/`. `fresh` (the smoke run) uses a database of
 * its own on DATABASE_URL's server, created empty and dropped at the end: jobs or rows a
 * previous run left behind (a webhook backlog keeps the new app's workers busy) cannot fail it.
 */
export async function openDatabase(fresh = false): Promise<BenchDatabase> {
  const url = process.env.DATABASE_URL?.trim();
  if (url && fresh) return freshDatabase(url);
  if (url) return { url, source: 'DATABASE_URL', stop: async () => {} };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pg-'));
  // As root, postgres runs as the `postgres` user, which cannot enter a 0700 mkdtemp folder.
  fs.chmodSync(dataDir, 0o755);
  try {
    const pg = await startEmbeddedPostgres({ dataDir, persistent: false });
    return {
      url: pg.url,
      source: 'embedded',
      async stop() {
        await pg.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Runs one statement on `url`'s server through a connection of its own. */
async function onServer(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A new, empty database beside the one `serverUrl` names (its user must be allowed to create databases). */
async function freshDatabase(serverUrl: string): Promise<BenchDatabase> {
  const name = `bench_smoke_${process.pid}_${randomBytes(4).toString('hex')}`;
  await onServer(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    source: 'DATABASE_URL',
    // FORCE: a server stopped with SIGKILL may leave a connection behind for a moment.
    stop: () => onServer(serverUrl, `drop database if exists ${name} with (force)`),
  };
}
