import http from 'node:http';
import { join } from 'node:path';
import { suiteWorkDir } from '../utils/work-dir';
import { watchOutput } from '../utils/watch-output';
import { readRecordedServer } from '../../gateway/database/embedded-postgres';
import { eventually } from '../utils/eventually';
import { spawnChild, START_LIMIT_MS } from '../utils/children';

const MAIN = join(__dirname, '../../dist/gateway/main.js');
const OPERATOR_TOKEN = 'cluster-test-operator-token';

/** One request on a connection of its own, so the cluster hands successive requests to different workers. */
function fresh(url: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; requestId: string; remaining: string | undefined; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? 'GET', headers: init.headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, requestId: String(res.headers['x-request-id']), remaining: res.headers['x-ratelimit-remaining'] as string | undefined, body: text ? JSON.parse(text) : null }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('WEB_CONCURRENCY=2: a primary and two HTTP workers on the embedded database', () => {
  const work = suiteWorkDir('hpp-cluster-');

  it('shares one rate-limit budget and every revocation across workers, replaces a dead worker, and SIGTERM stops them all and the database', async () => {
    const dataDir = join(work(), 'data');
    const { DATABASE_URL: _ignored, ...inherited } = process.env;
    const child = spawnChild(process.execPath, [MAIN], {
      env: { ...inherited, HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info', WEB_CONCURRENCY: '2', OPERATOR_TOKEN, RATE_LIMIT_PER_WINDOW: '8' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { exited, waitFor, servedBy } = watchOutput(child);

    const workerPids = new Set<number>();
    try {
      const url = (await waitFor(/is listening on (http:\/\/127\.0\.0\.1:\d+)/))[1];
      const tenantId = (await waitFor(/TENANT: +(\S+)/))[1];
      const apiKey = (await waitFor(/API-KEY: +(\S+)/))[1];
      await waitFor(/"msg":"all workers listening"/);
      const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
      const issued = await fresh(`${url}/admin/tenants/${tenantId}/api-keys`, { method: 'POST', headers: operator });
      expect(issued.status).toBe(201);
      const second = { TENANT: tenantId, 'API-KEY': issued.body.apiKey };
      const demo = { TENANT: tenantId, 'API-KEY': apiKey };
      const publicUrl = `${url}/tenant/public`;

      // The second key, verified (and cached) by both workers; one budget counts down across them.
      const warm = [];
      for (let i = 0; i < 4; i++) warm.push(await fresh(publicUrl, { headers: second }));
      expect(warm.map((r) => [r.status, r.remaining])).toEqual([[200, '7'], [200, '6'], [200, '5'], [200, '4']]);
      const warmPids = await servedBy(warm);
      expect(warmPids.size).toBe(2);
      warmPids.forEach((pid) => workerPids.add(pid));

      // Revoked through one worker, refused by both at once (not after the 10 s cache).
      expect((await fresh(`${url}/admin/api-keys/${issued.body.id}`, { method: 'DELETE', headers: operator })).status).toBe(204);
      const revoked = [];
      for (let i = 0; i < 4; i++) revoked.push(await fresh(publicUrl, { headers: second }));
      expect(revoked.map((r) => r.status)).toEqual([401, 401, 401, 401]);
      expect((await servedBy(revoked)).size).toBe(2);

      // Four points left for the tenant, whichever worker answers; then 429 from both.
      const rest = [];
      for (let i = 0; i < 6; i++) rest.push(await fresh(publicUrl, { headers: demo }));
      expect(rest.map((r) => r.status)).toEqual([200, 200, 200, 200, 429, 429]);
      expect((await servedBy(rest.slice(4))).size).toBe(2);

      // A worker that dies is replaced: answers keep coming, and a new pid serves beside the survivor.
      const [killed] = workerPids;
      process.kill(killed, 'SIGKILL');
      const replacement = await eventually(
        async () => {
          const answer = await fresh(publicUrl, { headers: demo }).catch(() => null);
          if (!answer) return null;
          expect([200, 429]).toContain(answer.status);
          const [pid] = await servedBy([answer]);
          return workerPids.has(pid) ? null : pid;
        },
        { what: 'a replacement worker serving', timeoutMs: 30_000, intervalMs: 200 },
      );
      expect(replacement).toBeGreaterThan(0);
      workerPids.add(replacement!);
      expect(alive(killed)).toBe(false);
    } finally {
      child.kill('SIGTERM');
      // Whatever failed above, the database must be down before afterAll removes its folder.
      await exited;
    }
    expect(await exited).toBe(0);
    expect(readRecordedServer(dataDir)).toBeNull();
    for (const pid of workerPids) expect(alive(pid)).toBe(false);
  }, START_LIMIT_MS + 120_000);
});
