import { readFileSync } from 'node:fs';
import { restSdkSchema, restSdkSchemaFile } from '../../../gateway/tools/rest-sdk-schema';

// The committed SDK types are what the code's document generates now: a route, field or rule
// changed without `npm run clients:generate` fails here, not in a client's build.
test('clients/rest/schema.d.ts is generated from the current OpenAPI document', () => {
  const committed = readFileSync(restSdkSchemaFile(), 'utf8');
  const generated = restSdkSchema();
  if (committed !== generated) throw new Error('clients/rest/schema.d.ts is stale: run `npm run clients:generate` and commit it');
  expect(committed).toContain('export interface paths');
});
