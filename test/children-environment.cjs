// The integration and e2e projects' jest environment: node's, plus the registry of the processes
// suites spawn (test/utils/children.ts). It runs in the jest worker itself, outside the suite's
// sandbox (whose `process` is a copy that never sees the worker exit), so it can stop children
// whatever happens to the suite:
// - when a test ends (passed, failed or timed out), the children spawned during it;
// - when the suite's file ends, the children its beforeAll hooks spawned;
// - when the worker exits, is told to stop (SIGTERM/SIGINT) or loses jest (its IPC channel closes),
//   all of them at once with SIGKILL;
// and every child is recorded in a pid file that the global teardown sweeps, for a worker that
// was killed outright.
'use strict';
const { TestEnvironment } = require('jest-environment-node');
const { killGroupsNow, stopGroup, recordChild, forgetChild } = require('./process-groups.cjs');

/** The children of this worker still to be stopped: { entry, test } (test: the one that spawned it, or null for a hook outside tests). */
const live = new Set();
let currentTest = null;
const recordDir = () => process.env.HPP_TEST_CHILDREN_DIR;

const registry = {
  /** Registers a child spawned detached (its pid is its group's id). */
  add(child, command) {
    if (!child.pid) return;
    live.add({ entry: recordChild(recordDir(), child.pid, command), test: currentTest });
  },
};

async function stopWhere(predicate) {
  const chosen = [...live].filter(predicate);
  await Promise.all(
    chosen.map(async (item) => {
      const killed = await stopGroup(item.entry);
      if (killed.length) process.stderr.write(`\n[children] ${item.entry.command} (pid ${item.entry.pid}) ignored SIGTERM; SIGKILLed its group: ${killed.join(', ')}\n`);
      live.delete(item);
      forgetChild(recordDir(), item.entry.pid);
    }),
  );
}

let hooked = false;
function hookWorkerExit() {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => killGroupsNow([...live].map((item) => item.entry)));
  for (const signal of ['SIGTERM', 'SIGINT']) {
    const onSignal = () => {
      killGroupsNow([...live].map((item) => item.entry));
      process.off(signal, onSignal);
      // What the signal would have done without this listener.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
  // Jest itself is gone (killed, or stopped by a signal it does not handle): nobody will read this
  // worker's results, so its children and then the worker stop, rather than run the rest of the file.
  // (Only in a jest-worker child: a jest run in band has no such channel of its own to lose.)
  if (process.connected && /jest-worker/.test(process.argv[1] ?? '')) {
    process.once('disconnect', () => {
      killGroupsNow([...live].map((item) => item.entry));
      process.exit(1);
    });
  }
}

class ChildrenEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.global.__HPP_CHILDREN__ = registry;
    hookWorkerExit();
  }

  async handleTestEvent(event, state) {
    await super.handleTestEvent?.(event, state);
    if (event.name === 'test_start') currentTest = event.test;
    // After the test's afterEach hooks, before the suite's afterAll removes its folders.
    if (event.name === 'test_done') {
      currentTest = null;
      await stopWhere((item) => item.test === event.test);
    }
  }

  async teardown() {
    await stopWhere(() => true);
    await super.teardown();
  }
}

module.exports = ChildrenEnvironment;
