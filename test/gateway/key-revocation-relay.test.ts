import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const FIXTURE = join(__dirname, 'fixtures/relay-cluster.cjs');
const RELAY_MODULE = join(__dirname, '../../dist/gateway/cluster/key-revocation-relay.js');
// CONFIRM_TIMEOUT_MS of the relay: an announce that took this long gave up instead of being confirmed.
const CONFIRM_TIMEOUT_MS = 2_000;

/**
 * The revocation relay between HTTP workers (WEB_CONCURRENCY > 1), on a real node cluster: a
 * revocation is answered only once every other joined worker has dropped its cached keys, even
 * one whose event loop was busy, so the client's next request is refused whichever worker it
 * reaches; a worker that never joined (still starting) is not waited for.
 */
describe('API key revocation relay across workers', () => {
  it("resolves the announcing worker's revocation only after every other joined worker cleared its cache", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [FIXTURE], { env: { ...process.env, RELAY_MODULE, BLOCK_MS: '400' }, timeout: 30_000 });
    const run = JSON.parse(stdout.trim()) as { started: number; resolved: number; outcome: string; cleared: Record<string, number> };
    expect(run.outcome).toBe('confirmed');
    expect(Object.keys(run.cleared).sort()).toEqual(['1', '2']);
    expect(run.resolved).toBeGreaterThanOrEqual(Math.max(...Object.values(run.cleared)));
    // Worker 3 never joined: waiting for it would have run into the timeout.
    expect(run.resolved - run.started).toBeLessThan(CONFIRM_TIMEOUT_MS);
  });
});
