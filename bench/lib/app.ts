import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { startChild, type Child } from './child';
import { freePort } from '../../gateway/database/free-port';
import { readSpeedPlumbing } from '../../platform/speed/speed-plumbing';
import { waitForUrl } from './readiness';
import { SERVER_NODE_FLAGS } from './server-flags';
import { waitForIdleWorkers } from './process-tree';

/** The platform running as a child process, set up for load: where it is and the operator token it accepts. */
export interface AppUnderTest {
  child: Child;
  url: string;
  operatorToken: string;
  /** HTTP worker processes (WEB_CONCURRENCY); 1 is a single process. */
  workers: number;
  /** The SPEED_PLUMBING it was started with (empty: every piece), for apps meant to run alike. */
  plumbing: string;
  /** Whether identical fetches in flight share one answer (SPEED_PLUMBING `inflight-dedup`). */
  dedup: boolean;
}

// The highest value gateway/config.ts accepts: about 160,000 req/s over its 60 s window.
const NO_RATE_LIMIT = '10000000';

/** The V8 flags `npm start` runs the server with (package.json), plus `BENCH_APP_NODE_ARGS` (e.g. `--cpu-prof`, which node refuses in NODE_OPTIONS). */
const nodeArgs = (): string[] => [...SERVER_NODE_FLAGS, ...(process.env.BENCH_APP_NODE_ARGS ?? '').split(/\s+/).filter(Boolean)];

/**
 * Starts `dist/gateway/main.js` all-in-one against `databaseUrl` and waits for /readyz (and for
 * every worker to have started, under WEB_CONCURRENCY). Logs
 * at warn because the per-request access log would cost more than some handlers; no demo
 * tenant because the benchmark makes its own.
 */
export async function startApp(databaseUrl: string, workers: number, extraEnv: Record<string, string> = {}): Promise<AppUnderTest> {
  const port = await freePort();
  const operatorToken = randomBytes(24).toString('hex');
  const child = startChild('app', path.join(__dirname, '..', '..', 'gateway', 'main.js'), {
    MODE: 'all-in-one',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    DEMO_TENANT: '0',
    OPERATOR_TOKEN: operatorToken,
    RATE_LIMIT_PER_WINDOW: NO_RATE_LIMIT,
    NODE_ENV: 'production',
    WEB_CONCURRENCY: String(workers),
    ...extraEnv,
  }, nodeArgs());
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForUrl(child, `${url}/readyz`);
    if (workers > 1) await waitForIdleWorkers(child.process.pid!, workers);
  } catch (error) {
    await child.stop();
    throw error;
  }
  child.echo();
  // Read as the app reads it (platform/speed/speed-plumbing.ts), from the environment the child got.
  const plumbing = extraEnv.SPEED_PLUMBING ?? process.env.SPEED_PLUMBING ?? '';
  const dedup = readSpeedPlumbing({ SPEED_PLUMBING: plumbing }, []).has('inflight-dedup');
  return { child, url, operatorToken, workers, plumbing, dedup };
}
