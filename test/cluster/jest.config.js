/**
 * The cluster harness's suite (`npm run test:cluster`, run by CI as root): hosts in network
 * namespaces, so not part of `npm test`, which must run anywhere without root.
 */
const base = require('../../jest.config.js');
const unit = base.projects.find((project) => project.displayName === 'unit');

module.exports = {
  rootDir: '../..',
  transform: unit.transform,
  setupFiles: unit.setupFiles,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/cluster/**/*.test.ts'],
  maxWorkers: 1,
  testTimeout: 120_000,
};
