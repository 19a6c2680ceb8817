import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../schema/paths';
import { currentContracts, readRelease } from './api-contract';
import { recordedBreaking } from './changelog';
import { contractChanges, refusals, type ContractChange, type Criticality, type Refusal } from './contract-diff';

const LEVELS: Criticality[] = ['BREAKING', 'DANGEROUS', 'NON_BREAKING'];

/** The changes as lines, grouped by criticality, graph first within each group. */
export function describeChanges(changes: ContractChange[]): string[] {
  if (!changes.length) return ['No change to the graph or the REST surface since the last release.'];
  const lines: string[] = [];
  for (const level of LEVELS) {
    const group = changes.filter((change) => change.criticality === level);
    if (!group.length) continue;
    lines.push(`${level} (${group.length}):`);
    for (const change of group) lines.push(`  [${change.surface}] \`${change.coordinate}\`: ${change.message}${change.sunset ? ` (deprecated, sunset ${change.sunset})` : ''}`);
  }
  return lines;
}

/** The refusals as lines, with what to do about them. */
export function describeRefusals(refused: Refusal[]): string[] {
  if (!refused.length) return ['Every breaking change is recorded in CHANGELOG.md.'];
  return [
    `${refused.length} breaking change(s) refused:`,
    ...refused.map(({ change, reason }) => `  [${change.surface}] \`${change.coordinate}\`: ${reason}`),
    'Record each under "### Breaking" in the Unreleased section of CHANGELOG.md, naming it as printed here',
    '(e.g. "- `Query.dashboard` removed: use `Query.dashboards`"), or undo the change. docs/api.md, "Versions and deprecation".',
  ];
}

/** `npm run api:check`: diffs the code's contracts against the last release's; exit 1 on a breaking change the changelog does not record. */
async function main(): Promise<void> {
  const release = readRelease();
  const changes = await contractChanges(release, currentContracts());
  const refused = refusals(changes, recordedBreaking(readFileSync(join(repoRoot(), 'CHANGELOG.md'), 'utf8')), new Date());
  console.log(`Contracts against release ${release.version} (schema/releases/):`);
  for (const line of [...describeChanges(changes), ...describeRefusals(refused)]) console.log(line);
  if (refused.length) process.exitCode = 1;
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
