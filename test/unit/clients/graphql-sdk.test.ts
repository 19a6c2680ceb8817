import { committed, graphqlSdkFiles } from '../../../gateway/tools/graphql-sdk';

// The committed typed operations are what the operations and the graph generate now: a field the
// graph renamed or an operation changed without `npm run clients:generate` fails here.
test('clients/graphql/generated is generated from the operations and the current graph', async () => {
  const files = await graphqlSdkFiles();
  const stale = files.filter((file) => committed(file) !== file.content).map((file) => file.path);
  if (stale.length) throw new Error(`${stale.join(', ')} stale: run \`npm run clients:generate\` and commit`);
  expect(files.map((file) => file.path)).toContain('clients/graphql/generated/graphql.ts');
}, 60_000);
