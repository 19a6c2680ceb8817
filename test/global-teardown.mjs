// Stops what global-setup started: the servers (SIGTERM, as an orchestrator would), then the
// database; and before them whatever a suite spawned and left running (test/children-environment.cjs).
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const { recordedChildren, stopGroup, groupMembers, isOurs } = require('./process-groups.cjs');

/** The servers' error lines (pino level 50 and up), so a failure in a server shows in the test output before its logs are removed. */
function printServerErrors(work) {
  const errors = readdirSync(work)
    .filter((name) => name.endsWith('.log'))
    .flatMap((name) => readFileSync(join(work, name), 'utf8').split('\n').filter((line) => /"level":(50|60)/.test(line)).map((line) => `[${name}] ${line}`));
  if (errors.length) process.stderr.write(`\nServer errors logged during the tests (last ${Math.min(errors.length, 20)} of ${errors.length}):\n${errors.slice(-20).join('\n')}\n`);
}

/**
 * Children of suites still running: their jest worker died before it could stop them (the worker's
 * own hooks stop them otherwise). Each is stopped with its process group, and named.
 */
async function sweepSuiteChildren(dir) {
  const left = recordedChildren(dir).filter((entry) => isOurs(entry) && groupMembers(entry.pid).length > 0);
  for (const entry of left) process.stderr.write(`\n[children] left running by a suite, stopping its process group: ${entry.command} (pid ${entry.pid})\n`);
  await Promise.all(left.map((entry) => stopGroup(entry)));
}

/** Stops the suites' leftovers, the shared servers (SIGKILL after 10 s) and the database; also what a failed global setup started. */
export async function stopServers(state) {
  await sweepSuiteChildren(join(state.work, 'children'));
  await Promise.all(
    state.children.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  await state.pg?.stop();
}

export default async function globalTeardown() {
  const state = globalThis.__HPP_TEST__;
  if (!state) return;
  // Once, for whichever project's teardown comes first: every test of every project has finished by then.
  globalThis.__HPP_TEST__ = undefined;
  await stopServers(state);
  printServerErrors(state.work);
  rmSync(state.work, { recursive: true, force: true });
}
