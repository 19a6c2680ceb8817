import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './network';
import { ClusterProcess } from './process';
import { PRIMARY_PORT, REPLICA_PORT, SUBNET, namespaceOf, type Host } from './topology';

/** The folder of a PostgreSQL installation's programs (initdb, pg_basebackup, postgres), or null. */
export function postgresBinaries(): string | null {
  const fromConfig = (() => {
    try {
      return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return null;
    }
  })();
  const candidates = [fromConfig, ...(existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort().reverse().map((v) => `/usr/lib/postgresql/${v}/bin`) : [])];
  return candidates.find((dir) => dir && ['initdb', 'postgres', 'pg_basebackup'].every((p) => existsSync(join(dir, p)))) ?? null;
}

/** The settings both servers share: small, quick to start, replication on, reachable from the subnet only. */
const SERVER_SETTINGS = ['-c', 'shared_buffers=64MB', '-c', 'max_connections=300', '-c', 'fsync=on', '-c', 'unix_socket_directories='];

/**
 * Makes the database host's primary (initdb as the postgres user, trust for the harness's subnet
 * only: a test host, never a deployment) and returns its process and the replica's, not started.
 */
export function preparePostgres(host: Host, workDir: string, logDir: string, bin: string): { primary: ClusterProcess; replica: ClusterProcess; primaryDir: string; replicaDir: string } {
  const root = join(workDir, 'pg');
  mkdirSync(root, { recursive: true });
  chownSync(root, uidOf('postgres'), gidOf('postgres'));
  const primaryDir = join(root, 'primary');
  const replicaDir = join(root, 'replica');
  run('runuser', ['-u', 'postgres', '--', join(bin, 'initdb'), '-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  writeFileSync(join(primaryDir, 'pg_hba.conf'), `host all all ${SUBNET}.0/24 trust\nhost replication all ${SUBNET}.0/24 trust\n`);
  const server = (name: string, dir: string, port: number) =>
    new ClusterProcess(
      {
        name,
        host,
        user: 'postgres',
        command: join(bin, 'postgres'),
        args: ['-D', dir, '-p', String(port), '-c', `listen_addresses=${host.address}`, ...SERVER_SETTINGS],
        readyLine: /database system is ready to accept (read-only )?connections/,
        readyMs: 60_000,
      },
      logDir,
    );
  return { primary: server('postgres-primary', primaryDir, PRIMARY_PORT), replica: server('postgres-replica', replicaDir, REPLICA_PORT), primaryDir, replicaDir };
}

/** Copies the running primary into the replica's folder with pg_basebackup, set to stream from it. */
export function cloneReplica(host: Host, bin: string, replicaDir: string): void {
  run('ip', ['netns', 'exec', namespaceOf(host), 'runuser', '-u', 'postgres', '--', join(bin, 'pg_basebackup'), '-h', host.address, '-p', String(PRIMARY_PORT), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream', '--no-sync']);
}

/** Creates a database on the primary. */
export function createDatabase(host: Host, bin: string, name: string): void {
  run('ip', ['netns', 'exec', namespaceOf(host), join(bin, 'psql'), '-h', host.address, '-p', String(PRIMARY_PORT), '-U', 'postgres', '-qc', `create database ${name}`]);
}

const uidOf = (user: string) => Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
const gidOf = (user: string) => Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
