import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
 * benchmark never touches the developer's `.data/`.
 */
export async function openDatabase(): Promise<BenchDatabase> {
  const url = process.env.DATABASE_URL?.trim();
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
