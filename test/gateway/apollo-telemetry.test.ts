import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '../..');

/** What a fresh node process sees of Apollo's switch once it imports the built gateway's telemetry module, then builds a gateway as graphql.ts does. */
const PROBE = `
require('./dist/gateway/graphql/apollo-telemetry.js');
const { ApolloGateway } = require('@apollo/gateway');
const { readSupergraph } = require('./dist/schema/supergraph.js');
(async () => {
  const gateway = new ApolloGateway({ supergraphSdl: readSupergraph() });
  const { schema } = await gateway.load();
  const fields = Object.keys(schema.getQueryType().getFields()).length;
  await gateway.stop();
  console.log(JSON.stringify({ switch: process.env.APOLLO_TELEMETRY_DISABLED ?? null, fields }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

async function probe(env: Record<string, string | undefined>): Promise<{ switch: string | null; fields: number }> {
  const childEnv = { ...process.env, ...env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete childEnv[name];
  const { stdout } = await run(process.execPath, ['-e', PROBE], { cwd: ROOT, env: childEnv });
  return JSON.parse(stdout);
}

describe("Apollo Gateway's usage telemetry", () => {
  it('is switched off unless the operator says otherwise; the gateway still builds its schema', async () => {
    const result = await probe({ APOLLO_TELEMETRY_DISABLED: undefined });
    expect(result.switch).toBe('true');
    expect(result.fields).toBeGreaterThan(10);
  });

  it("keeps the operator's own setting", async () => {
    expect((await probe({ APOLLO_TELEMETRY_DISABLED: 'false' })).switch).toBe('false');
  });
});
