import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/**
 * How long a server spawned by a test may take to print its URL: a first start initialises the
 * embedded PostgreSQL and runs every migration, which on a loaded two-core machine has taken over a
 * minute. Suites wait for that line (readiness), never a fixed time; their jest timeout is this
 * plus what the test does once the server is up.
 */
export const START_LIMIT_MS = 180_000;

interface ChildRegistry {
  add(child: ChildProcess, command: string): void;
}

/**
 * Spawns a process for a test, in a process group of its own, registered with the jest
 * environment (test/children-environment.cjs): when the test ends, however it ends, the process
 * gets SIGTERM and, if it or anything it started is still there 10 s later, the whole group gets
 * SIGKILL. A child spawned in a beforeAll hook is stopped when the suite's file ends.
 */
export function spawnChild(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  const registry = (globalThis as { __HPP_CHILDREN__?: ChildRegistry }).__HPP_CHILDREN__;
  if (!registry) throw new Error('spawnChild needs the test environment of jest.config.js (test/children-environment.cjs)');
  const child = spawn(command, args, { ...options, detached: true });
  registry.add(child, [command, ...args].map((part) => part.split('/').slice(-3).join('/')).join(' '));
  return child;
}
