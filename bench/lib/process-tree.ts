import fs from 'node:fs';
import { execFileSync } from 'node:child_process';

/** The process and its descendants (a WEB_CONCURRENCY primary and its workers), from /proc on Linux; the process alone elsewhere. */
export function processTree(pid: number): number[] {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    try {
      const tasks = fs.readdirSync(`/proc/${pids[i]}/task`);
      for (const task of tasks) {
        const children = fs.readFileSync(`/proc/${pids[i]}/task/${task}/children`, 'utf8').trim();
        if (children) pids.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // not Linux, or the process is gone: what was found so far
    }
  }
  return pids;
}

/** Resident set size of one process in MiB, from /proc on Linux and `ps` elsewhere. */
export function processRssMiB(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
  } catch {
    return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)]).toString().trim() || 0) / 1024;
  }
}

/** Resident set size of a process and its descendants in MiB. */
export function treeRssMiB(pid: number): number {
  return processTree(pid).reduce((sum, one) => sum + processRssMiB(one), 0);
}

/** The node processes a WEB_CONCURRENCY primary forked (its HTTP workers), in pid order; other descendants (an embedded PostgreSQL) left out. */
function nodeWorkers(pid: number): number[] {
  return processTree(pid)
    .slice(1)
    .filter((one) => {
      try {
        return fs.readFileSync(`/proc/${one}/cmdline`, 'utf8').split('\0')[0] === process.execPath;
      } catch {
        return false;
      }
    })
    .sort((a, b) => a - b);
}

/**
 * Waits until `count` HTTP workers run under the primary `pid` and all of its processes have been
 * nearly idle for half a second. /readyz answers once the first worker listens, while the others
 * are still starting (they start after it), so without this a benchmark would warm up, and read
 * the memory "at start", on one worker. Linux only: elsewhere it returns at once.
 */
export async function waitForIdleWorkers(pid: number, count: number, timeoutMs = 60_000): Promise<void> {
  if (!fs.existsSync(`/proc/${pid}`)) return;
  const deadline = Date.now() + timeoutMs;
  let before = treeCpuMs(pid);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = treeCpuMs(pid);
    // A starting worker keeps a core busy; under 5% of one core over 500 ms is idle.
    if (nodeWorkers(pid).length >= count && now - before < 25) return;
    before = now;
  }
  throw new Error(`${count} workers were not up and idle within ${timeoutMs / 1000} s`);
}

/** Resident memory of a WEB_CONCURRENCY primary and of each of its HTTP workers, in MiB. */
export interface ClusterRss {
  primary: number;
  /** One entry per worker process, in pid order; empty for a single process. */
  workers: number[];
}

/** Resident memory of the app's primary and of each of its workers: a limit per worker is what an operator sizes a container by. Linux only (/proc); elsewhere the workers list is empty. */
export function clusterRssMiB(pid: number): ClusterRss {
  return { primary: processRssMiB(pid), workers: nodeWorkers(pid).map(processRssMiB) };
}

/** CPU time a process and its descendants used so far in ms (user + system, Linux /proc); NaN elsewhere. Less disturbed by other load than wall time. */
export function treeCpuMs(pid: number): number {
  return processTree(pid).reduce((sum, one) => {
    try {
      const fields = fs.readFileSync(`/proc/${one}/stat`, 'utf8').split(') ')[1].split(' ');
      return sum + ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    } catch {
      return Number.NaN;
    }
  }, 0);
}

/** How the app under load runs, for the reports. */
export const describeProcesses = (workers: number): string =>
  workers > 1 ? `${workers} HTTP worker processes under a primary (WEB_CONCURRENCY=${workers})` : 'one process';
