import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { repoRoot } from '../../schema/paths';
import { currentContracts, packageVersion, readRelease, releaseDir, writeRelease } from './api-contract';
import { releasedVersions } from './changelog';
import { contractChanges, type ContractChange } from './contract-diff';

/**
 * Why `version` may not be released, or null: a version that is not semver, one the changelog has
 * no entry for, one not above the last release, or breaking changes since the last release in a
 * version that is not a new major (semver; 0.x excepted). `last` is absent for the first release.
 */
export function releaseRefusal(version: string, changelog: string, last?: { version: string; changes: ContractChange[] }): string | null {
  if (!semver.valid(version)) return `package.json's version ${version} is not semver`;
  if (!releasedVersions(changelog).includes(version)) return `CHANGELOG.md has no "## [${version}]" entry: move the Unreleased notes under it first`;
  if (!last) return null;
  if (!semver.gt(version, last.version)) return `version ${version} is not above the last release, ${last.version}: bump package.json's version`;
  const breaking = last.changes.filter((change) => change.criticality === 'BREAKING');
  if (breaking.length && semver.major(version) === semver.major(last.version) && semver.major(last.version) > 0) {
    return `${breaking.length} breaking change(s) since ${last.version} need a new major version, not ${version}: ${breaking.map((c) => c.coordinate).join(', ')}`;
  }
  return null;
}

/**
 * `npm run api:release`, when cutting a release: files the code's contracts under schema/releases/
 * as package.json's version, the baseline `npm run api:check` diffs against from then on.
 */
async function main(): Promise<void> {
  const version = packageVersion();
  const current = currentContracts();
  const previous = existsSync(join(releaseDir(), 'release.json')) ? readRelease() : undefined;
  const last = previous && { version: previous.version, changes: await contractChanges(previous, current) };
  const refusal = releaseRefusal(version, readFileSync(join(repoRoot(), 'CHANGELOG.md'), 'utf8'), last);
  if (refusal) throw new Error(refusal);
  writeRelease({ version, ...current });
  console.log(`Wrote the contracts of release ${version} to ${releaseDir()}`);
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
