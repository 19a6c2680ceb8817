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

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', swcOptions] },
  setupFiles: ['reflect-metadata'],
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  testTimeout: 30000,
  // MikroORM's entity metadata does not survive a second jest sandbox in the same worker
  // ("Map.prototype.set called on incompatible receiver"): give every test file a fresh worker.
  maxWorkers: 2,
  workerIdleMemoryLimit: 1,
};
