import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../schema/paths';
import type { Cluster } from './cluster';
import { kernelHasNetem, setImpairment } from './network';
import { ClusterProcess } from './process';
import type { Host } from './topology';

/**
 * How the harness adds latency between hosts on this machine: tc's netem where the kernel has it;
 * otherwise the NFQUEUE delayer (bench/cluster/delay/nfq-delay.c, built here with gcc and Debian's
 * libnetfilter-queue-dev), since some VM kernels have no sch_netem (nor fq, which honours a BPF
 * program's departure times); or none, with the reason.
 */
export type DelayMethod = { kind: 'netem' } | { kind: 'nfqueue'; binary: string } | { kind: 'none'; why: string };

/** The NFQUEUE number the delayer reads in each host's namespace (queues are per namespace). */
const QUEUE = 0;

/** Finds the way to delay packets here; builds the NFQUEUE delayer into `workDir` when netem is missing. */
export function delayMethod(workDir: string): DelayMethod {
  if (kernelHasNetem()) return { kind: 'netem' };
  const binary = join(workDir, 'nfq-delay');
  try {
    execFileSync('gcc', ['-O2', '-Wall', '-o', binary, join(repoRoot(), 'bench', 'cluster', 'delay', 'nfq-delay.c'), '-lnetfilter_queue'], { stdio: ['ignore', 'pipe', 'pipe'] });
    return { kind: 'nfqueue', binary };
  } catch (err) {
    const stderr = String((err as { stderr?: Buffer }).stderr ?? (err as Error).message).trim().split('\n')[0];
    return { kind: 'none', why: `no netem in this kernel, and the NFQUEUE delayer did not build (apt-get install gcc libnetfilter-queue-dev): ${stderr}` };
  }
}

/** What `method` can add, for a fault's name. */
export function describeDelay(method: DelayMethod, delayMs: number): string {
  if (method.kind === 'netem') return `${delayMs} ms latency (netem)`;
  if (method.kind === 'nfqueue') return `${delayMs} ms latency (NFQUEUE delayer; this kernel has no netem)`;
  return `no added latency (${method.why})`;
}

/**
 * Delays everything `hosts` send by `delayMs` and drops `lossPercent` of it, by `method`: a
 * delayer process per host joins the cluster's processes, so teardown stops it like the others.
 */
export async function impair(cluster: Cluster, hosts: Host[], method: DelayMethod, delayMs: number, lossPercent: number): Promise<void> {
  const netem = method.kind === 'netem';
  if (method.kind === 'nfqueue') {
    await Promise.all(
      hosts.map(async (host) => {
        const delayer = new ClusterProcess({ name: `delay-${host.name}`, host, command: method.binary, args: [String(QUEUE), String(delayMs)], readyLine: /holds packets/, readyMs: 10_000 }, join(cluster.workDir, 'logs'));
        cluster.processes.set(delayer.spec.name, delayer);
        await delayer.start();
      }),
    );
  }
  for (const host of hosts) setImpairment(host, { delayMs, lossPercent, nfqueue: method.kind === 'nfqueue' ? QUEUE : null }, netem);
}

/** Takes away what `impair` added: the rules first, so no packet waits on a delayer that is gone. */
export async function unimpair(cluster: Cluster, hosts: Host[], method: DelayMethod): Promise<void> {
  for (const host of hosts) setImpairment(host, null, method.kind === 'netem');
  await Promise.all(
    hosts.map(async (host) => {
      const delayer = cluster.processes.get(`delay-${host.name}`);
      if (!delayer) return;
      await delayer.stop(2_000, 'SIGTERM');
      cluster.processes.delete(delayer.spec.name);
    }),
  );
}
