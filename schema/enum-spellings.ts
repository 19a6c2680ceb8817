import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemaDir } from './paths';

/** Enum type -> graph value name -> the value as it is stored and as REST spells it (`CREATED_DATE` -> `createdDate`). */
export type EnumSpellings = Record<string, Record<string, string>>;

let loaded: EnumSpellings | undefined;

/**
 * The checked-in schema/enum-spellings.json (written by `npm run compose` beside the supergraph):
 * the graph spells enum values SCREAMING_SNAKE_CASE, the REST contract as it always has. Read once.
 */
export function enumSpellings(): EnumSpellings {
  loaded ??= JSON.parse(readFileSync(join(schemaDir(), 'enum-spellings.json'), 'utf8')) as EnumSpellings;
  return loaded;
}
