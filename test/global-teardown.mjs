// Stops what global-setup started: the servers (SIGTERM, as an orchestrator would), then the database.
import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  const state = globalThis.__HPP_TEST__;
  if (!state) return;
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
  rmSync(state.work, { recursive: true, force: true });
}
