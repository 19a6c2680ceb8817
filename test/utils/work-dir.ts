import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A temp folder for the suite, removed after it; world-traversable because the embedded
 * PostgreSQL runs as the unprivileged postgres user when the tests run as root.
 */
export function suiteWorkDir(prefix: string): () => string {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    chmodSync(dir, 0o755);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return () => dir;
}
