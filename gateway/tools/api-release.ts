import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { repoRoot } from '../../schema/paths';
import { currentContracts, packageVersion, readRelease, releaseDir, writeRelease } from './api-contract';
import { releasedVersions } from './changelog';
import { contractChanges } from './contract-diff';

/**
 * `npm run api:release`, when cutting a release: files the code's contracts under schema/releases/
 * as package.json's version, the baseline `npm run api:check` diffs against from then on. It
 * refuses a version the changelog has no entry for, one not above the last release, and a
 * breaking change in a release that is not a new major version (semver; 0.x excepted).
 */
async function main(): Promise<void> {
  const version = packageVersion();
  if (!semver.valid(version)) throw new Error(`package.json's version ${version} is not semver`);
  if (!releasedVersions(readFileSync(join(repoRoot(), 'CHANGELOG.md'), 'utf8')).includes(version)) {
    throw new Error(`CHANGELOG.md has no "## [${version}]" entry: move the Unreleased notes under it first`);
  }
  const current = currentContracts();
  if (existsSync(join(releaseDir(), 'release.json'))) {
    const last = readRelease();
    if (!semver.gt(version, last.version)) throw new Error(`version ${version} is not above the last release, ${last.version}: bump package.json's version`);
    const breaking = (await contractChanges(last, current)).filter((change) => change.criticality === 'BREAKING');
    if (breaking.length && semver.major(version) === semver.major(last.version) && semver.major(last.version) > 0) {
      throw new Error(`${breaking.length} breaking change(s) since ${last.version} need a new major version, not ${version}: ${breaking.map((c) => c.coordinate).join(', ')}`);
    }
  }
  writeRelease({ version, ...current });
  console.log(`Wrote the contracts of release ${version} to ${releaseDir()}`);
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
