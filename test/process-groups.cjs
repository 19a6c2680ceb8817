// Process groups of the servers tests start: each child runs in a group of its own (spawned
// detached), so one signal reaches it and everything it started (cluster workers, the embedded
// PostgreSQL, the node behind `npm start`), even after the child itself has died. Plain CommonJS:
// the jest environment, the global setup/teardown (.mjs) and the suites all load it.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/** How long a child may take over SIGTERM before its whole group gets SIGKILL. */
const STOP_GRACE_MS = 10_000;

/** A process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat); null when it is gone or there is no /proc. */
function startTime(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  } catch {
    return null;
  }
}

/** The live (not zombie) processes of group `pgid`, from /proc. */
function groupMembers(pgid) {
  let names;
  try {
    names = fs.readdirSync('/proc');
  } catch {
    // No /proc: whether the group has anyone left is only known by signalling it.
    try {
      process.kill(-pgid, 0);
      return [pgid];
    } catch {
      return [];
    }
  }
  const members = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after the command name: state, ppid, pgrp.
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(name));
    } catch {
      // gone while we looked
    }
  }
  return members;
}

/**
 * Whether group `pgid` is still the one recorded: a group id is not reused while the group has
 * members, but once its leader is gone the id may come back as a new leader's pid.
 */
function isOurs(entry) {
  const leaderStart = startTime(entry.pid);
  return leaderStart === null || entry.started === null || leaderStart === entry.started;
}

function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is empty
  }
}

/** SIGKILL to every recorded group still holding processes: synchronous, for exit and signal hooks. */
function killGroupsNow(entries) {
  for (const entry of entries) if (isOurs(entry) && groupMembers(entry.pid).length) signalGroup(entry.pid, 'SIGKILL');
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref());

async function emptied(pgid, ms) {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(100)) if (groupMembers(pgid).length === 0) return true;
  return groupMembers(pgid).length === 0;
}

/**
 * Stops a recorded child and its group: SIGTERM to the child (its own graceful shutdown, which
 * stops what it started), then SIGKILL to the group once `graceMs` pass with anyone left in it.
 * Answers the pids that had to be killed.
 */
async function stopGroup(entry, graceMs = STOP_GRACE_MS) {
  if (!isOurs(entry)) return [];
  if (groupMembers(entry.pid).length === 0) return [];
  if (startTime(entry.pid) !== null) {
    try {
      process.kill(entry.pid, 'SIGTERM');
    } catch {
      // gone already
    }
    if (await emptied(entry.pid, graceMs)) return [];
  }
  const left = groupMembers(entry.pid);
  signalGroup(entry.pid, 'SIGKILL');
  await emptied(entry.pid, 5_000);
  return left;
}

/** What a pid file under `dir` records of a child: enough to find its group again, and to tell it from a reused pid. */
function recordChild(dir, pid, command) {
  const entry = { pid, started: startTime(pid), command };
  if (dir) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${pid}.json`), JSON.stringify(entry));
  }
  return entry;
}

function forgetChild(dir, pid) {
  if (dir) fs.rmSync(path.join(dir, `${pid}.json`), { force: true });
}

/** The children recorded under `dir` (by any jest worker of this run). */
function recordedChildren(dir) {
  let names;
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    try {
      return [JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'))];
    } catch {
      return [];
    }
  });
}

module.exports = { STOP_GRACE_MS, startTime, groupMembers, isOurs, killGroupsNow, stopGroup, recordChild, forgetChild, recordedChildren };
