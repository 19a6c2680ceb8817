import { join } from 'node:path';
import { spawnChild } from '../utils/children';
import { watchOutput } from '../utils/watch-output';

const NOTES_MAIN = join(__dirname, '../../dist/subgraphs/notes/main.js');

/**
 * A subgraph service stops on SIGTERM by its own shutdown (drain, close, exit 0), not by Apollo
 * Server's signal handler: that one stops Apollo first, leaving the service's own stop waiting,
 * and then kills the process with the signal again, which a container's PID 1 ignores (Docker
 * then waits out its grace and kills it, exit 137).
 */
describe('a subgraph service told to stop', () => {
  it('exits 0 on SIGTERM, by its own shutdown', async () => {
    const child = spawnChild(process.execPath, [NOTES_MAIN], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', INTERNAL_SECRET: 'shutdown-test-secret-0123456789', LOG_LEVEL: 'warn', NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const watched = watchOutput(child);
    await watched.waitFor(/"msg":"listening"/);
    const exit = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (code, signal) => resolve([code, signal])));
    child.kill('SIGTERM');
    expect(await exit).toEqual([0, null]);
  });
});
