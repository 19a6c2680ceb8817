/** What runs on a test host of the cluster harness. */
export type HostRole = 'lb' | 'gateway' | 'subgraph' | 'worker' | 'db' | 'redis' | 'client';

/** One test host: a network namespace with one address on the harness's switch. */
export interface Host {
  /** Short name; the namespace is `hpp-<name>`, its switch port `v-<name>` (15 characters at most). */
  name: string;
  role: HostRole;
  address: string;
  /** For subgraph hosts: which subgraph it runs. */
  subgraph?: SubgraphName;
}

/** The four subgraph services of distributed mode, with the port each listens on (as in docker-compose.yml). */
export const SUBGRAPH_PORTS = { tenant: 4001, billing: 4002, analytics: 4003, notes: 4004 } as const;
export type SubgraphName = keyof typeof SUBGRAPH_PORTS;

/** Every namespace and switch port the harness makes starts with this, so a sweep finds leftovers. */
export const NAMESPACE_PREFIX = 'hpp-';
/** The namespace holding the bridge that joins every host (no address of its own). */
export const SWITCH_NAMESPACE = `${NAMESPACE_PREFIX}switch`;
export const SUBNET = '10.77.0';
export const GATEWAY_PORT = 4000;
export const PRIMARY_PORT = 5432;
export const REPLICA_PORT = 5433;
export const REDIS_PORT = 6379;
/** Each subgraph host's Prometheus port (METRICS_PORT), on the host's own address. */
export const SUBGRAPH_METRICS_PORT = 9464;
/** The analytics hosts' REPLICA_MAX_LAG_MS: short, so the cluster suite sees a fall-back within seconds. */
export const CLUSTER_REPLICA_MAX_LAG_MS = 2_000;
export const LB_PORT = 80;

/**
 * The hosts of issue 36: a load balancer, two gateways, each subgraph on two hosts, the webhook
 * worker, a database host (PostgreSQL primary and a streaming replica), a Redis host and a client.
 */
export function clusterHosts(): Host[] {
  const hosts: Host[] = [
    { name: 'lb', role: 'lb', address: `${SUBNET}.2` },
    { name: 'gw1', role: 'gateway', address: `${SUBNET}.11` },
    { name: 'gw2', role: 'gateway', address: `${SUBNET}.12` },
  ];
  let next = 21;
  for (const subgraph of Object.keys(SUBGRAPH_PORTS) as SubgraphName[]) {
    for (const replica of [1, 2]) hosts.push({ name: `${subgraph}${replica}`, role: 'subgraph', subgraph, address: `${SUBNET}.${next++}` });
  }
  hosts.push(
    { name: 'worker', role: 'worker', address: `${SUBNET}.31` },
    { name: 'db', role: 'db', address: `${SUBNET}.41` },
    { name: 'redis', role: 'redis', address: `${SUBNET}.42` },
    { name: 'client', role: 'client', address: `${SUBNET}.51` },
  );
  return hosts;
}

/** The namespace of a host. */
export const namespaceOf = (host: Pick<Host, 'name'>): string => `${NAMESPACE_PREFIX}${host.name}`;
