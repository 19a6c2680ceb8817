import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Supergraph } from '@apollo/federation-internals';
import { printSchema, type GraphQLSchema } from 'graphql';
import { ROUTES } from '../../rest-bridge/routes';
import { repoRoot } from '../../schema/paths';
import { readSupergraph } from '../../schema/supergraph';
import { platformOpenApi } from '../http/openapi-document';
import type { Contracts } from './contract-diff';

/** The last release's contracts, as `npm run api:release` wrote them, and the version they belong to. */
export interface Release extends Contracts {
  version: string;
}

/** The folder holding the last release's contracts (docs/api.md, "Versions and deprecation"). */
export const releaseDir = (): string => join(repoRoot(), 'schema', 'releases');

const FILES = { sdl: 'api.graphql', openapi: 'openapi.json', release: 'release.json' };

/**
 * The contracts the current code publishes, without a server or a database: the API schema the
 * gateway serves from the checked-in supergraph (federation's directives and inaccessible
 * elements removed, as introspection shows it), and `/openapi.json` as the gateway builds it.
 */
export function currentContracts(): Contracts {
  const schema = apiSchemaOf(readSupergraph());
  // The server is the path of PUBLIC_URL only (relativeServer): `/` for any origin.
  return { sdl: printSchema(schema) + '\n', openapi: platformOpenApi(ROUTES, schema, 'http://localhost/') };
}

/** The API schema clients see of a supergraph (its join directives and inaccessible elements gone, `@deprecated` kept), as the gateway derives it. */
export function apiSchemaOf(supergraphSdl: string): GraphQLSchema {
  return Supergraph.build(supergraphSdl).apiSchema().toGraphQLJSSchema();
}

/** The package's version (package.json), which a release's contracts are filed under. */
export function packageVersion(): string {
  return JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')).version;
}

/** The last release's contracts; throws, saying how to cut one, when there are none. */
export function readRelease(dir = releaseDir()): Release {
  const file = (name: string) => join(dir, name);
  if (!existsSync(file(FILES.release))) throw new Error(`no release baseline in ${dir}: cut one with \`npm run api:release\``);
  const { version } = JSON.parse(readFileSync(file(FILES.release), 'utf8'));
  return { version, sdl: readFileSync(file(FILES.sdl), 'utf8'), openapi: JSON.parse(readFileSync(file(FILES.openapi), 'utf8')) };
}

/** Files `contracts` as release `version`, replacing the last release's. */
export function writeRelease(release: Release, dir = releaseDir()): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, FILES.sdl), release.sdl);
  writeFileSync(join(dir, FILES.openapi), JSON.stringify(release.openapi, null, 2) + '\n');
  writeFileSync(join(dir, FILES.release), JSON.stringify({ version: release.version, note: 'The contracts of this release, written by `npm run api:release`; `npm run api:check` diffs the code against them. Do not edit.' }, null, 2) + '\n');
}
