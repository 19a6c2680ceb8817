import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { repoRoot } from '../../schema/paths';
import { currentContracts } from './api-contract';

/**
 * The graph half of `npm run api:lint`: graphql-eslint's schema rules (eslint.config.mjs) over the
 * API schema as the code composes it, written to a temporary file under dist/ (ESLint lints only
 * files below the project): no server, no database. Any
 * problem fails it; a rule we do not follow yet is off in eslint.config.mjs, saying why.
 */
export async function lintGraph(): Promise<number> {
  const dir = mkdtempSync(join(repoRoot(), 'dist', 'graphql-lint-'));
  try {
    const file = join(dir, 'api-schema.graphql');
    writeFileSync(file, currentContracts().sdl);
    const eslint = new ESLint({ cwd: repoRoot(), overrideConfigFile: join(repoRoot(), 'eslint.config.mjs'), errorOnUnmatchedPattern: true });
    const [result] = await eslint.lintFiles([file]);
    for (const m of result.messages) console.log(`${m.severity === 2 ? 'error' : 'warning'} ${m.ruleId ?? 'parse'} at ${m.line}:${m.column}: ${m.message}`);
    const count = result.errorCount + result.warningCount;
    console.log(count ? `${count} problem(s) in the graph: fix them, or turn the rule off in eslint.config.mjs saying why` : 'GraphQL schema: no graphql-eslint problems (eslint.config.mjs)');
    return count;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
