/** Jest runs TypeScript through swc (type-checking is `npm run typecheck`, see docs/architecture.md, Stack notes). */
const swcOptions = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
};

/** What every project shares: TypeScript through swc, node, reflect-metadata for the decorators. */
const common = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', swcOptions] },
  setupFiles: ['reflect-metadata'],
};

/**
 * Projects that need PostgreSQL (and the end-to-end servers): one setup for both, run once
 * (test/global-setup.mjs); node's environment plus the registry that stops the processes suites
 * spawn (test/children-environment.cjs).
 */
const withDatabase = {
  ...common,
  testEnvironment: '<rootDir>/test/children-environment.cjs',
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
};

/**
 * Three projects (docs/architecture.md, Tests and benchmarks): `unit` needs no database and no
 * build (`npm run test:unit`); `integration` runs subgraphs, the gateway and the bridge in-process
 * on a real PostgreSQL; `e2e` (with the abuse suite) talks HTTP to servers started from dist/ as
 * users start them. `npm test` runs all three.
 */
module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    { ...withDatabase, displayName: 'integration', testMatch: ['<rootDir>/test/{platform,gateway,rest-bridge,schema,subgraphs}/**/*.test.ts'] },
    { ...withDatabase, displayName: 'e2e', testMatch: ['<rootDir>/test/{e2e,abuse}/**/*.test.ts'] },
  ],
  testTimeout: 30000,
  // MikroORM's entity metadata does not survive a second jest sandbox in the same worker
  // ("Map.prototype.set called on incompatible receiver"): give every test file a fresh worker.
  maxWorkers: 2,
  workerIdleMemoryLimit: 1,
};
