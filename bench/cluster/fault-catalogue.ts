import type { Cluster } from './cluster';
import type { Fault } from './faults';
import { delayMethod, describeDelay, impair, unimpair } from './delayer';
import { setPartitioned } from './network';

/** Settings the fault runs are started with (docs/operations.md, "A cluster on one machine"). */
export const FAULT_RUN_ENV: NodeJS.ProcessEnv = {
  // One tenant's steady load for minutes: far past the default 600 requests a window.
  RATE_LIMIT_PER_WINDOW: '1000000',
  // A key held by a request that died with its gateway is released after 12 s (not 60), so a client's
  // three retries (Retry-After, at most 10 s each) outlast it; fetches give up after 5 s to allow it.
  IDEMPOTENCY_LOCK_SECONDS: '12',
  SUBGRAPH_TIMEOUT_MS: '5000',
};

/** The start of the latency-and-loss fault's name (its end says how the delay was made here). */
export const LATENCY_FAULT = 'latency and loss on every host';

/** The faults of issue 36 under load, each injected a few seconds in and healed a few seconds later. */
export function faultCatalogue(cluster: Cluster): Fault[] {
  const processOf = (name: string) => cluster.processes.get(name) ?? raise(`no process ${name}`);
  const impaired = cluster.hosts.filter((h) => h.role !== 'client');
  const delay = delayMethod(cluster.workDir);
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
      // SIGINT: PostgreSQL's fast shutdown (SIGTERM would wait for every pooled session to leave).
      inject: () => processOf('postgres-primary').stop(10_000, 'SIGINT'),
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
      name: `${LATENCY_FAULT}: 1% loss, ${describeDelay(delay, 20)}`,
      atSeconds: 0,
      inject: () => impair(cluster, impaired, delay, 20, 1),
      heal: () => unimpair(cluster, impaired, delay),
    },
  ];
}

function raise(message: string): never {
  throw new Error(message);
}
