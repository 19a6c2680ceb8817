// Stops what global-setup started: the servers (SIGTERM, as an orchestrator would), then the database.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** The servers' error lines (pino level 50 and up), so a failure in a server shows in the test output before its logs are removed. */
function printServerErrors(work) {
  const errors = readdirSync(work)
    .filter((name) => name.endsWith('.log'))
    .flatMap((name) => readFileSync(join(work, name), 'utf8').split('\n').filter((line) => /"level":(50|60)/.test(line)).map((line) => `[${name}] ${line}`));
  if (errors.length) process.stderr.write(`\nServer errors logged during the tests (last ${Math.min(errors.length, 20)} of ${errors.length}):\n${errors.slice(-20).join('\n')}\n`);
}

export default async function globalTeardown() {
  const state = globalThis.__HPP_TEST__;
  if (!state) return;
  // Once, for whichever project's teardown comes first: every test of every project has finished by then.
  globalThis.__HPP_TEST__ = undefined;
  await Promise.all(
    state.children.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null) return resolve();
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
  printServerErrors(state.work);
  rmSync(state.work, { recursive: true, force: true });
}
