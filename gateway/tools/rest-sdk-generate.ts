import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { repoRoot } from '../../schema/paths';
import { graphqlSdkFiles } from './graphql-sdk';
import { restSdkSchema, restSdkSchemaFile } from './rest-sdk-schema';

/**
 * `npm run clients:generate`: rewrites clients/rest/schema.d.ts from the document the code serves
 * and clients/graphql/generated/ from the operations and the graph the code serves.
 */
async function main(): Promise<void> {
  const file = restSdkSchemaFile();
  writeFileSync(file, restSdkSchema());
  console.log(`wrote ${relative(repoRoot(), file)}`);
  for (const generated of await graphqlSdkFiles()) {
    const target = join(repoRoot(), generated.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, generated.content);
    console.log(`wrote ${generated.path}`);
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
