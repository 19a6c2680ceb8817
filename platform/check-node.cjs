// Run by `npm start` and `npm test` before anything else (package.json's prestart/pretest): on a
// Node the project does not support, one line saying which is needed and how to get it, and exit 1,
// instead of npm's EBADENGINE warnings scrolling by and everything then running unsupported.
// CommonJS and nothing newer than Node 12 can read, so that the old Node it refuses can run it.
'use strict';
const { engines } = require('../package.json');
const semver = require('semver');

if (!semver.satisfies(process.versions.node, engines.node)) {
  const major = semver.minVersion(engines.node).major;
  console.error(`Node ${engines.node} is needed; this is Node ${process.versions.node}. Install Node ${major} LTS (nvm install ${major}, or https://nodejs.org/en/download) and run the command again.`);
  process.exit(1);
}
