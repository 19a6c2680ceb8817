import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { spawnChild, START_LIMIT_MS } from '../utils/children';
import { watchOutput, type WatchedOutput } from '../utils/watch-output';
import { createTestTenant, type TestTenant } from '../utils/e2e';
import { freePort } from '../../gateway/database/free-port';
import { eventually } from '../utils/eventually';

const MAIN = join(__dirname, '..', '..', 'dist', 'gateway', 'main.js');
const WINDOW_SECONDS = 3;
const FALLBACK = 6;
// Far above REDIS_TIMEOUT_MS (300 ms): a request that waited on the hung Redis would pass it.
const ANSWER_WITHIN_MS = 5_000;

/**
 * A hung Redis (SIGSTOP) behind the rate limits (docs/operations.md, Redis): requests keep
 * answering, each within the Redis timeout and a margin, counted by the documented fallback (this
 * process's memory, RATE_LIMIT_FALLBACK_PER_WINDOW), in every window while it lasts; once Redis
 * runs again the counts are shared again. ioredis's complaints are JSON log lines.
 */
describe('rate limits when Redis hangs', () => {
  let redisServer: ReturnType<typeof spawnChild>;
  let redis: Redis;
  let gateway: WatchedOutput;
  let url: string;
  let tenant: TestTenant;

  beforeAll(async () => {
    const redisPort = await freePort();
    redisServer = spawnChild('/usr/bin/redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    await watchOutput(redisServer).waitFor(/Ready to accept connections/);
    redis = new Redis({ port: redisPort, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
    await redis.connect();
    const { DATABASE_URL, PATH } = process.env;
    const child = spawnChild(process.execPath, [MAIN], {
      env: {
        PATH,
        DATABASE_URL,
        PORT: '0',
        HOST: '127.0.0.1',
        DEMO_TENANT: '0',
        OPERATOR_TOKEN: process.env.E2E_OPERATOR_TOKEN,
        WEBHOOK_DISPATCHER: 'off',
        NOTIFICATION_SENDER: 'off',
        LOG_LEVEL: 'info',
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        REDIS_TIMEOUT_MS: '300',
        RATE_LIMIT_PER_WINDOW: '1000',
        RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
        RATE_LIMIT_LEASE: '5',
        RATE_LIMIT_FALLBACK_PER_WINDOW: String(FALLBACK),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    gateway = watchOutput(child);
    url = (await gateway.waitFor(/is listening on (http:\/\/127\.0\.0\.1:\d+)/))[1]!;
    tenant = await createTestTenant('Hung Redis Clinic', url);
  }, START_LIMIT_MS + 30_000);
  afterAll(async () => {
    if (redisServer.exitCode === null) redisServer.kill('SIGCONT');
    redis?.disconnect();
  });

  /** One request; it must answer (never hang past the bound), with its status and Retry-After. */
  const call = async () => {
    const res = await fetch(`${url}/tenant/public`, { headers: tenant.headers, signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
    await res.arrayBuffer();
    return { status: res.status, retryAfter: res.headers.get('retry-after') };
  };
  /** Waits for the start of the next rate-limit window (the test's own clock; windows start at their first request). */
  const nextWindow = () => sleep(WINDOW_SECONDS * 1000 + 200);

  it('answers through a hung Redis with the fallback limits, every window, then shares counts again', async () => {
    expect((await call()).status).toBe(200);
    const key = `rl:tenant:${tenant.tenantId}`;
    expect(Number(await redis.get(key))).toBeGreaterThan(0);

    redisServer.kill('SIGSTOP');
    // Counted in this process's memory: at most the fallback (and what was left of the slice leased before), then 429.
    const during: { status: number; retryAfter: string | null }[] = [];
    for (let i = 0; i < FALLBACK + 8; i++) during.push(await call());
    expect(during.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    const refusedAt = during.findIndex((r) => r.status === 429);
    expect(refusedAt).toBeGreaterThan(0);
    expect(refusedAt).toBeLessThanOrEqual(FALLBACK + 5);
    expect(Number(during[refusedAt]!.retryAfter)).toBeGreaterThan(0);
    // The next window, Redis still hung: requests are admitted again, not refused for good.
    await nextWindow();
    const nextWindowCalls = [await call(), await call()];
    expect(nextWindowCalls.map((r) => r.status)).toEqual([200, 200]);

    redisServer.kill('SIGCONT');
    // Shared counts again: a new window's requests reach Redis's key.
    await nextWindow();
    await eventually(
      async () => {
        expect((await call()).status).toBe(200);
        return (await redis.ttl(key)) > 0;
      },
      { what: 'the rate limit counted in Redis again', timeoutMs: 20_000, intervalMs: 500 },
    );
    const logged = gateway.output();
    expect(logged).toMatch(/^\{.*"msg":"redis unavailable; rate limits count in this process until it answers".*\}$/m);
    expect(logged).not.toMatch(/\[ioredis\]/);
  }, 90_000);
});
