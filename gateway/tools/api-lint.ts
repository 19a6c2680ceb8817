import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../schema/paths';
import { currentContracts } from './api-contract';
import { lintGraph } from './graphql-lint';

/** One problem of Redocly's JSON report, as far as this reads it. */
interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer?: string }[];
}

/**
 * Redocly's lint (redocly.yaml) of `/openapi.json` as the code renders it, written to a temporary
 * file: no server, no database. A warning fails it as an error does (Redocly itself exits 0 on
 * warnings): a rule we accept is on, one we do not is off in redocly.yaml. Answers the problems found.
 */
function lintOpenApi(): number {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(currentContracts().openapi, null, 2));
    const root = repoRoot();
    const args = ['lint', file, '--config', join(root, 'redocly.yaml'), '--format', 'json', '--max-problems', '10000'];
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    const run = spawnSync(join(root, 'node_modules', '.bin', 'redocly'), args, { cwd: root, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (run.error || !run.stdout.trim()) throw new Error(`redocly lint did not run: ${run.error?.message ?? run.stderr}`);
    const problems: Problem[] = JSON.parse(run.stdout).problems;
    for (const p of problems) console.log(`${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '#'}: ${p.message}`);
    console.log(problems.length ? `${problems.length} problem(s): fix them, or turn the rule off in redocly.yaml saying why` : 'OpenAPI document: no Redocly problems (redocly.yaml)');
    return problems.length || (run.status ? 1 : 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `npm run api:lint`: both published contracts linted, the REST document (Redocly) and the graph (graphql-eslint). */
async function main(): Promise<void> {
  const problems = lintOpenApi() + (await lintGraph());
  process.exitCode = problems ? 1 : 0;
}

void main();
