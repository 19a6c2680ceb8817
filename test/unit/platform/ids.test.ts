import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isUuid, storedId, storedIds } from '../../../platform/ids';

const ROOT = join(__dirname, '../../..');

/** Every .ts file under these folders, relative to the repository root. */
function sourceFiles(...dirs: string[]): string[] {
  return dirs.flatMap((dir) =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(path);
      return entry.name.endsWith('.ts') ? [relative(ROOT, join(ROOT, path))] : [];
    }),
  );
}

/**
 * Where an id's shape may be looked at. `storedId`/`storedIds` turn a client's id into one a row
 * could carry or nothing, only where ids meet queries: repositories, and the analytics query
 * engine's SQL builders. `isUuid` validates what is stored or trusted, never a lookup.
 */
const SHAPE_CHECKS: Record<string, string> = {
  'platform/serve-subgraph.ts': 'the identity headers the gateway sends: a tenant id that is no UUID is no tenant',
  'subgraphs/tenant/services/tenant-rules.ts': 'a setting that stores an id must be one (422, not a lookup)',
  'gateway/http/assets.ts': 'the public asset route keeps ids that cannot exist out of its cache',
};
const QUERY_BUILDERS = new Set(['subgraphs/analytics/revenue/revenue-where.ts', 'subgraphs/analytics/query/filter-sql.ts']);

describe('one station turns a malformed id into an unknown one', () => {
  it('keeps UUIDs (lower-cased) and drops every other shape', () => {
    const id = 'A6C1B7E2-3F4D-4E5A-9B8C-7D6E5F4A3B2C';
    expect(storedId(id)).toBe(id.toLowerCase());
    for (const bad of ['', 'not-a-uuid', `${id}0`, ` ${id}`, `${id}\n`, "1' or '1'='1", null, undefined, 42 as unknown as string]) expect(storedId(bad)).toBeNull();
    expect(storedIds([id, id.toLowerCase(), 'nope', null])).toEqual([id.toLowerCase()]);
    expect(isUuid(id)).toBe(true);
    expect(isUuid('nope')).toBe(false);
  });

  it('is used where ids meet queries only: no resolver or service checks an id itself', () => {
    const misplaced: string[] = [];
    for (const file of sourceFiles('platform', 'subgraphs', 'gateway', 'rest-bridge', 'schema')) {
      if (file === 'platform/ids.ts') continue;
      const text = readFileSync(join(ROOT, file), 'utf8');
      if (/\bisUuid\s*\(/.test(text) && !(file in SHAPE_CHECKS)) misplaced.push(`${file}: isUuid`);
      if (/\bstoredIds?\s*\(/.test(text) && !file.includes('/repositories/') && !QUERY_BUILDERS.has(file)) misplaced.push(`${file}: storedId`);
    }
    if (misplaced.length) {
      throw new Error(
        `Id shape checks outside the one station (docs/architecture.md, Rules of the house):\n  ${misplaced.join('\n  ')}\n` +
          'Pass the id to the repository: its lookup calls storedId and answers null (NOT_FOUND above it) for any shape that cannot exist.',
      );
    }
    const stale = Object.keys(SHAPE_CHECKS).filter((file) => !/\bisUuid\s*\(/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(stale).toEqual([]);
  });
});
