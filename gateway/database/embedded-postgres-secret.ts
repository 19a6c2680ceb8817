import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';

const SECRET_FILE = 'embedded-postgres.secret';
/** The superuser password of data directories initialised before each got a secret of its own. */
const LEGACY_PASSWORD = 'postgres';
const INVALID_PASSWORD = '28P01';

/** The superuser password of the embedded PostgreSQL in dataDir, or null when none was generated yet. */
export function readSecret(dataDir: string): string | null {
  try {
    return fs.readFileSync(path.join(dataDir, SECRET_FILE), 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * The data directory's secret, generated on first use into a file only this user may read. As root
 * the server runs as `postgres`, but only this (root) process connects, so root keeps the file.
 */
export function ensureSecret(dataDir: string): string {
  const file = path.join(dataDir, SECRET_FILE);
  if (!fs.existsSync(file)) {
    // Written aside and linked into place, so two starts racing agree on one secret.
    const draft = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(draft, `${crypto.randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
    try {
      fs.linkSync(draft, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      fs.unlinkSync(draft);
    }
  }
  // A copy restored from a backup may have lost its mode.
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  return readSecret(dataDir)!;
}

/**
 * What PostgreSQL stores for a password under scram-sha-256 (RFC 5802/7677). PostgreSQL keeps a
 * password given in this form as it is, so initdb's password file (written to the system's temp
 * folder by embedded-postgres) and an ALTER ROLE never carry the secret itself.
 */
export function scramVerifier(password: string): string {
  const iterations = 4096;
  const salt = crypto.randomBytes(16);
  const salted = crypto.pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const hmac = (key: Buffer, text: string) => crypto.createHmac('sha256', key).update(text).digest();
  const storedKey = crypto.createHash('sha256').update(hmac(salted, 'Client Key')).digest();
  const serverKey = hmac(salted, 'Server Key');
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}

/** The URL of the embedded server's `postgres` database as its superuser. */
export function superuserUrl(port: number, password: string): string {
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

/** The URL for a running server recorded in dataDir: with its secret, or the legacy password before it had one. */
export function recordedServerUrl(dataDir: string, port: number): string {
  return superuserUrl(port, readSecret(dataDir) ?? LEGACY_PASSWORD);
}

/**
 * Makes the secret the superuser's password on a server just started. A data directory from before
 * the secret still has the fixed legacy password: it is changed once, through a session opened with it.
 */
export async function adoptSecret(port: number, secret: string): Promise<void> {
  if (await canConnect(port, secret)) return;
  const client = new Client({ connectionString: superuserUrl(port, LEGACY_PASSWORD) });
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => undefined);
    if ((err as { code?: string }).code !== INVALID_PASSWORD) throw err;
    throw new Error(
      `the superuser password is neither this data directory's secret (${SECRET_FILE}) nor the former fixed one; ` +
        `restore ${SECRET_FILE} from where this data directory came from`,
    );
  }
  try {
    await client.query(`alter role postgres password ${client.escapeLiteral(scramVerifier(secret))}`);
  } finally {
    await client.end();
  }
}

async function canConnect(port: number, password: string): Promise<boolean> {
  const client = new Client({ connectionString: superuserUrl(port, password) });
  try {
    await client.connect();
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === INVALID_PASSWORD) return false;
    throw err;
  } finally {
    await client.end().catch(() => undefined);
  }
}
