/**
 * Reading CHANGELOG.md (Keep a Changelog) for the contract check: which breaking changes the
 * coming release announces. docs/api.md, "Versions and deprecation", says how to record one.
 */

/** The lines of the `## [Unreleased]` section, without its heading; throws when the changelog has none. */
export function unreleasedSection(changelog: string): string[] {
  const lines = changelog.split(/\r?\n/);
  const start = lines.findIndex((line) => /^##\s+\[?unreleased\]?\s*$/i.test(line));
  if (start < 0) throw new Error('CHANGELOG.md has no "## [Unreleased]" section');
  const end = lines.findIndex((line, i) => i > start && /^##\s/.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/**
 * The coordinates the Unreleased section records as breaking: every `code span` in the lines under
 * its `### Breaking` heading (up to the next heading), e.g. `Query.dashboard` or `GET /tenant/public`.
 */
export function recordedBreaking(changelog: string): string[] {
  const section = unreleasedSection(changelog);
  const start = section.findIndex((line) => /^###\s+breaking\s*$/i.test(line));
  if (start < 0) return [];
  const end = section.findIndex((line, i) => i > start && /^#{1,3}\s/.test(line));
  const text = section.slice(start + 1, end < 0 ? undefined : end).join('\n');
  return [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1].trim());
}

/** The versions the changelog has an entry for (`## [1.2.0] - 2026-11-28`), newest first as written. */
export function releasedVersions(changelog: string): string[] {
  return [...changelog.matchAll(/^##\s+\[?(\d+\.\d+\.\d+[^\]\s]*)\]?/gm)].map((match) => match[1]);
}
