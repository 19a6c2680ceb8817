import { execFileSync } from 'node:child_process';
import { NAMESPACE_PREFIX, SWITCH_NAMESPACE, namespaceOf, type Host } from './topology';

/** Runs iproute2's `ip` (or `tc`) and answers its output; a failure throws with the command and its stderr. */
export function run(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new Error(`${command} ${args.join(' ')}: ${stderr || (err as Error).message}`);
  }
}

/** Why the harness cannot run here (not root, no iproute2, namespaces refused), or null when it can. */
export function unavailableReason(): string | null {
  if (process.platform !== 'linux') return 'network namespaces need Linux';
  if (process.getuid?.() !== 0) return 'network namespaces need root';
  const probe = `${NAMESPACE_PREFIX}probe-${process.pid}`;
  try {
    run('ip', ['netns', 'add', probe]);
    run('ip', ['netns', 'del', probe]);
    return null;
  } catch (err) {
    return `cannot make a network namespace: ${(err as Error).message}`;
  }
}

/** The harness's namespaces that exist now (a previous run's too, if it was killed). */
export function harnessNamespaces(): string[] {
  const listed = run('ip', ['netns', 'list']);
  return listed
    .split('\n')
    .map((line) => line.split(' ')[0])
    .filter((name) => name.startsWith(NAMESPACE_PREFIX));
}

/** Processes living in a namespace (whoever started them). */
export function pidsIn(namespace: string): number[] {
  return run('ip', ['netns', 'pids', namespace])
    .split('\n')
    .filter(Boolean)
    .map(Number);
}

/**
 * Kills every process in the harness's namespaces, then deletes the namespaces; their veth pairs
 * go with them. Safe to call at any time, also for a run that died without cleaning up.
 */
export function sweep(): void {
  const namespaces = harnessNamespaces();
  for (const namespace of namespaces) {
    for (const pid of pidsIn(namespace)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
  }
  for (const namespace of namespaces) run('ip', ['netns', 'del', namespace]);
}

/** The host side of a host's link: `eth0` in its namespace. */
export const HOST_LINK = 'eth0';
const switchPort = (host: Host) => `v-${host.name}`;

/** Makes the switch (a bridge in a namespace of its own) and every host, joined to it by a veth pair. */
export function buildNetwork(hosts: Host[]): void {
  run('ip', ['netns', 'add', SWITCH_NAMESPACE]);
  run('ip', ['-n', SWITCH_NAMESPACE, 'link', 'add', 'br0', 'type', 'bridge']);
  run('ip', ['-n', SWITCH_NAMESPACE, 'link', 'set', 'br0', 'up']);
  for (const host of hosts) {
    const namespace = namespaceOf(host);
    run('ip', ['netns', 'add', namespace]);
    run('ip', ['link', 'add', HOST_LINK, 'netns', namespace, 'type', 'veth', 'peer', 'name', switchPort(host), 'netns', SWITCH_NAMESPACE]);
    run('ip', ['-n', SWITCH_NAMESPACE, 'link', 'set', switchPort(host), 'master', 'br0', 'up']);
    run('ip', ['-n', namespace, 'link', 'set', 'lo', 'up']);
    run('ip', ['-n', namespace, 'addr', 'add', `${host.address}/24`, 'dev', HOST_LINK]);
    run('ip', ['-n', namespace, 'link', 'set', HOST_LINK, 'up']);
  }
}

/** Cuts a host off the switch (its cable pulled) or plugs it back in. */
export function setConnected(host: Host, connected: boolean): void {
  run('ip', ['-n', SWITCH_NAMESPACE, 'link', 'set', switchPort(host), connected ? 'up' : 'down']);
}

/** Whether this kernel has tc's netem qdisc (some VM kernels are built without sch_netem). */
export function kernelHasNetem(): boolean {
  const probe = `${NAMESPACE_PREFIX}netem-${process.pid}`;
  run('ip', ['netns', 'add', probe]);
  try {
    run('ip', ['netns', 'exec', probe, 'tc', 'qdisc', 'add', 'dev', 'lo', 'root', 'netem', 'delay', '1ms']);
    return true;
  } catch {
    return false;
  } finally {
    run('ip', ['netns', 'del', probe]);
  }
}

/**
 * Adds delay and loss to everything a host sends, or removes both with `null`. With netem (tc) both
 * are the kernel's; without it, loss is iptables' `statistic` match dropping that share of the
 * host's outgoing packets, and the delay comes from the NFQUEUE delayer reading queue `nfqueue`
 * (bench/cluster/delayer.ts starts it), or is not added when `nfqueue` is null. `--queue-bypass`:
 * with no delayer reading, packets pass undelayed instead of being dropped.
 */
export function setImpairment(host: Host, impairment: { delayMs: number; lossPercent: number; nfqueue: number | null } | null, netem: boolean): void {
  const namespace = namespaceOf(host);
  if (netem) {
    if (impairment) run('ip', ['netns', 'exec', namespace, 'tc', 'qdisc', 'replace', 'dev', HOST_LINK, 'root', 'netem', 'delay', `${impairment.delayMs}ms`, 'loss', `${impairment.lossPercent}%`]);
    else run('ip', ['netns', 'exec', namespace, 'tc', 'qdisc', 'del', 'dev', HOST_LINK, 'root']);
    return;
  }
  const iptables = (...args: string[]) => run('ip', ['netns', 'exec', namespace, 'iptables-legacy', ...args]);
  if (!impairment) return void iptables('-F', 'OUTPUT');
  // Dropped first: a packet to be lost does not wait in the delayer.
  iptables('-A', 'OUTPUT', '-o', HOST_LINK, '-m', 'statistic', '--mode', 'random', '--probability', String(impairment.lossPercent / 100), '-j', 'DROP');
  if (impairment.nfqueue !== null) iptables('-A', 'OUTPUT', '-o', HOST_LINK, '-j', 'NFQUEUE', '--queue-num', String(impairment.nfqueue), '--queue-bypass');
}

/** Blocks (or unblocks) every packet between a host and the others, with the host's own firewall: a partition. */
export function setPartitioned(host: Host, partitioned: boolean): void {
  const namespace = namespaceOf(host);
  for (const chain of ['INPUT', 'OUTPUT']) {
    const flag = chain === 'INPUT' ? '-i' : '-o';
    run('ip', ['netns', 'exec', namespace, 'iptables-legacy', partitioned ? '-A' : '-D', chain, flag, HOST_LINK, '-j', 'DROP']);
  }
}

/** TCP sockets listening in a namespace, as `address:port`. */
export function listeners(host: Host): string[] {
  return run('ip', ['netns', 'exec', namespaceOf(host), 'ss', '-Hltn'])
    .split('\n')
    .filter(Boolean)
    .map((line) => line.trim().split(/\s+/)[3]);
}
