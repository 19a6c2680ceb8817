import { registerHooks } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/*
 * Apollo Gateway exports anonymous usage metrics (host, OS, CPU and memory figures) to Apollo's
 * servers every hour unless APOLLO_TELEMETRY_DISABLED is set; a platform holding patients' and
 * payment data sends nothing anywhere unasked, so it is set here unless the operator has set it
 * (Apollo's own switch: written, not read, before the gateway is built). Imported first by the
 * modules that load @apollo/gateway, because what follows must precede that load.
 *
 * With the telemetry off, the gateway still loads everything the telemetry would use: OpenTelemetry's
 * metrics SDK, an OTLP exporter, four cloud resource detectors and the incubating semantic
 * conventions, about 15 MiB of heap in every process that runs the gateway (bench/RESULTS.md). Those
 * requires, and only the ones made by the gateway's telemetry module, resolve to an empty module
 * instead: nothing of them runs while the telemetry is off (the module reads them only in the
 * function that starts it). Any other requirer (the platform's tracing SDK) gets the real packages.
 */
process.env.APOLLO_TELEMETRY_DISABLED ??= 'true';

/** What @apollo/gateway/dist/utilities/opentelemetry.js requires for its usage telemetry alone. */
const TELEMETRY_ONLY = new Set([
  '@opentelemetry/semantic-conventions/incubating',
  '@opentelemetry/sdk-metrics',
  '@opentelemetry/resource-detector-alibaba-cloud',
  '@opentelemetry/resource-detector-aws',
  '@opentelemetry/resource-detector-gcp',
  '@opentelemetry/resource-detector-azure',
  '@opentelemetry/resources',
  '@opentelemetry/exporter-metrics-otlp-http',
  'node-cpu-count',
]);

const TELEMETRY_MODULE = /[\\/]@apollo[\\/]gateway[\\/]dist[\\/]utilities[\\/]opentelemetry\.js$/;

/** Apollo's own reading of the switch (ApolloGateway's constructor). */
const telemetryOff = ['true', '1'].includes(process.env.APOLLO_TELEMETRY_DISABLED);

if (telemetryOff) unloadTelemetryPackages();

/**
 * Loads the gateway's telemetry module with its requires of TELEMETRY_ONLY pointed at the empty
 * module, then takes the hook away again. A resolve hook stays in every later `require` of the
 * process, and Apollo Server requires `crypto` on every request (@apollo/utils.createhash): left in
 * place, the hook cost ~20% CPU per request (bench/RESULTS.md, 2026-11-27).
 */
function unloadTelemetryPackages(): void {
  const emptyModule = pathToFileURL(path.join(__dirname, 'apollo-telemetry-stub.js')).href;
  let hooks: { deregister(): void };
  try {
    hooks = registerHooks({
      resolve(specifier, context, nextResolve) {
        if (TELEMETRY_ONLY.has(specifier) && context.parentURL && TELEMETRY_MODULE.test(context.parentURL)) {
          return { url: emptyModule, format: 'commonjs', shortCircuit: true };
        }
        return nextResolve(specifier, context);
      },
    });
  } catch {
    // A module loader that refuses hooks (jest's sandbox does) loads the real packages: memory, not behaviour.
    return;
  }
  try {
    // Its requires run once, at load: loaded now, the gateway later gets it from the module cache.
    require(telemetryModulePath());
  } finally {
    hooks.deregister();
  }
}

/** Where the module that TELEMETRY_MODULE matches is (the package's exports do not name it). */
function telemetryModulePath(): string {
  return path.join(path.dirname(require.resolve('@apollo/gateway')), 'utilities', 'opentelemetry.js');
}
