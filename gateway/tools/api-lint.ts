import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../schema/paths';
import { currentContracts } from './api-contract';

/**
 * `npm run api:lint`: Redocly's lint (redocly.yaml) of `/openapi.json` as the code renders it,
 * written to a temporary file: no server, no database. Exits with Redocly's status.
 */
function main(): void {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(currentContracts().openapi, null, 2));
    const root = repoRoot();
    const redocly = join(root, 'node_modules', '.bin', 'redocly');
    // --max-problems: every warning is printed, not the first 100.
    const run = spawnSync(redocly, ['lint', file, '--config', join(root, 'redocly.yaml'), '--max-problems', '1000'], { stdio: 'inherit', cwd: root });
    process.exitCode = run.status ?? 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
