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

/** Resident set size of a process and its descendants in MiB, from /proc on Linux and `ps` elsewhere. */
export function treeRssMiB(pid: number): number {
  return processTree(pid).reduce((sum, one) => {
    try {
      const status = fs.readFileSync(`/proc/${one}/status`, 'utf8');
      return sum + Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
    } catch {
      return sum + Number(execFileSync('ps', ['-o', 'rss=', '-p', String(one)]).toString().trim() || 0) / 1024;
    }
  }, 0);
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
