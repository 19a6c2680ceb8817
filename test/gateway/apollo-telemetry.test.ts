import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '../..');

/**
 * What a fresh node process (not jest's module registry, which module hooks do not reach) loads
 * when it imports the built gateway's telemetry switch and then Apollo Gateway, as graphql.ts does.
 */
const PROBE = `
const telemetry = require('./dist/gateway/graphql/apollo-telemetry.js');
const { ApolloGateway } = require('@apollo/gateway');
const { readSupergraph } = require('./dist/schema/supergraph.js');
const telemetryOnly = Object.keys(require.cache).filter((file) =>
  /@opentelemetry[\\\\/](resource-detector-|sdk-metrics|exporter-metrics-otlp-http|semantic-conventions[\\\\/].*incubating)|node-cpu-count/.test(file));
const build = process.argv[1] === 'build';
(async () => {
  let fields = null;
  if (build) {
    const gateway = new ApolloGateway({ supergraphSdl: readSupergraph() });
    const { schema } = await gateway.load();
    fields = Object.keys(schema.getQueryType().getFields()).length;
    await gateway.stop();
  }
  // Another requirer of a stubbed name (the platform's tracing SDK) gets the real package.
  const resources = require('@opentelemetry/resources');
  // The hook is gone once the telemetry module has loaded: even a require made as that module gets the real package.
  const asTelemetryModule = require('node:module').createRequire(require.resolve('@apollo/gateway/package.json').replace(/package\.json$/, 'dist/utilities/opentelemetry.js'));
  const hookGone = Object.keys(asTelemetryModule('@opentelemetry/resources')).length > 0;
  console.log(JSON.stringify({
    switch: process.env.APOLLO_TELEMETRY_DISABLED ?? null,
    telemetryOnly: telemetryOnly.length,
    realResources: typeof resources.resourceFromAttributes === 'function',
    hookGone,
    fields,
  }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

async function probe(env: Record<string, string | undefined>, build: boolean): Promise<{ switch: string | null; telemetryOnly: number; realResources: boolean; hookGone: boolean; fields: number | null }> {
  const childEnv = { ...process.env, ...env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete childEnv[name];
  const { stdout } = await run(process.execPath, ['-e', PROBE, build ? 'build' : 'load'], { cwd: ROOT, env: childEnv });
  return JSON.parse(stdout);
}

describe("Apollo Gateway's usage telemetry", () => {
  it('is switched off unless the operator says otherwise, and its packages are not loaded; the gateway still builds its schema', async () => {
    const result = await probe({ APOLLO_TELEMETRY_DISABLED: undefined }, true);
    // hookGone: no resolve hook is left in the process's later requires (Apollo Server requires crypto per request).
    expect(result).toEqual({ switch: 'true', telemetryOnly: 0, realResources: true, hookGone: true, fields: expect.any(Number) });
    expect(result.fields).toBeGreaterThan(10);
  });

  it('loads its packages as Apollo ships it when the operator turns it on', async () => {
    const result = await probe({ APOLLO_TELEMETRY_DISABLED: 'false' }, false);
    expect(result.switch).toBe('false');
    expect(result.telemetryOnly).toBeGreaterThanOrEqual(5);
    expect(result.realResources).toBe(true);
  });
});
