import type { Cluster } from './cluster';
import type { Fault } from './faults';
import { kernelHasNetem, setImpairment, setPartitioned } from './network';

/** The faults of issue 36 under load, each injected a few seconds in and healed a few seconds later. */
export function faultCatalogue(cluster: Cluster): Fault[] {
  const processOf = (name: string) => cluster.processes.get(name) ?? raise(`no process ${name}`);
  const impaired = cluster.hosts.filter((h) => h.role !== 'client');
  const netem = kernelHasNetem();
  return [
    { name: 'none (baseline)', atSeconds: 0, inject: () => undefined },
    {
      name: 'gateway replica SIGKILLed, restarted 6 s later',
      atSeconds: 4,
      inject: () => processOf('gw1').signal('SIGKILL'),
      healAfterSeconds: 6,
      heal: () => processOf('gw1').start(),
    },
    {
      name: 'analytics replica SIGKILLed, restarted 6 s later',
      atSeconds: 4,
      inject: () => processOf('analytics1').signal('SIGKILL'),
      healAfterSeconds: 6,
      heal: () => processOf('analytics1').start(),
    },
    {
      name: 'PostgreSQL primary restarted (down 5 s)',
      atSeconds: 4,
      inject: () => processOf('postgres-primary').stop(10_000),
      healAfterSeconds: 5,
      heal: () => processOf('postgres-primary').start(),
    },
    {
      name: 'Redis cut off by its host firewall for 8 s',
      atSeconds: 4,
      inject: () => setPartitioned(cluster.host('redis'), true),
      healAfterSeconds: 8,
      heal: () => setPartitioned(cluster.host('redis'), false),
    },
    {
      name: netem ? '20 ms latency and 1% loss on every host' : '1% loss on every host (no netem in this kernel: no added latency)',
      atSeconds: 0,
      inject: () => impaired.forEach((h) => setImpairment(h, { delayMs: 20, lossPercent: 1 }, netem)),
      heal: () => impaired.forEach((h) => setImpairment(h, null, netem)),
    },
  ];
}

function raise(message: string): never {
  throw new Error(message);
}
