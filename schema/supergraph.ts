import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemaDir } from './paths';

/** Reads the checked-in supergraph SDL the gateway starts from (composed by subgraphs/compose.ts). */
export function readSupergraph(): string {
  return readFileSync(join(schemaDir(), 'supergraph.graphql'), 'utf8');
}
