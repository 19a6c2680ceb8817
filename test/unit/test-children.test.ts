import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The suites' rule for processes they start (docs/architecture.md, Tests and benchmarks): a
 * long-running child is spawned with `spawnChild` (test/utils/children.ts), which registers it so
 * that it is stopped, with everything it started, however its test ends. A bare `spawn` or `fork`
 * from node:child_process would outlive a failed or timed-out test. Read from the source.
 */

const ROOT = join(__dirname, '../..');
/** Where spawning is the job: the helper itself; the global setup's servers are stopped by the global teardown. */
const ALLOWED = new Set(['test/utils/children.ts', 'test/global-setup.mjs']);

function suiteFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'unit' ? [] : suiteFiles(path);
    return /\.(ts|mjs|cjs)$/.test(entry.name) ? [relative(ROOT, path)] : [];
  });
}

test('suites spawn processes only through spawnChild', () => {
  const offenders = suiteFiles(join(ROOT, 'test'))
    .filter((file) => !ALLOWED.has(file))
    .filter((file) => /\bimport\s*\{[^}]*\b(spawn|fork)\b[^}]*\}\s*from\s*'node:child_process'|require\('(node:)?child_process'\)\.(spawn|fork)\b/.test(readFileSync(join(ROOT, file), 'utf8')));
  expect(offenders).toEqual([]);
});
