import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { repoRoot } from '../../schema/paths';
import { restSdkSchema, restSdkSchemaFile } from './rest-sdk-schema';

/** `npm run clients:generate`: rewrites clients/rest/schema.d.ts from the document the code serves. */
function main(): void {
  const file = restSdkSchemaFile();
  writeFileSync(file, restSdkSchema());
  console.log(`wrote ${relative(repoRoot(), file)}`);
}

main();
