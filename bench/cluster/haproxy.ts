import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClusterProcess } from './process';
import { GATEWAY_PORT, LB_PORT, type Host } from './topology';

/**
 * HAProxy's configuration for the load-balancer host: round robin over the gateways, each checked
 * on `/readyz` every 500 ms (2 s to answer) and taken out after three failures. A connection that fails before the
 * request reached a gateway is retried on the other (`retry-on conn-failure`, HAProxy's default
 * scope), which is safe for any method: the gateway saw nothing. Nothing that reached a gateway is
 * retried by the load balancer; that is the client's decision (Idempotency-Key).
 */
export function haproxyConfig(lb: Host, gateways: Host[], statsSocket: string): string {
  return [
    'global',
    '  maxconn 4096',
    `  stats socket ${statsSocket} mode 600 level admin`,
    // Notices only: a gateway marked down or up, not a line per request.
    '  log stderr format raw local0 notice',
    'defaults',
    '  log global',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 65s',
    '  timeout server 65s',
    '  timeout http-request 10s',
    // A check's own limit: left unset it is `inter` (500 ms), which a loaded host behind 20 ms of
    // latency per hop overruns, and two slow answers took both gateways out at once.
    '  timeout check 2s',
    '  option redispatch',
    '  retries 2',
    '  retry-on conn-failure',
    'frontend api',
    `  bind ${lb.address}:${LB_PORT}`,
    '  default_backend gateways',
    'backend gateways',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    '  default-server inter 500ms fall 3 rise 2 on-marked-down shutdown-sessions',
    ...gateways.map((gateway) => `  server ${gateway.name} ${gateway.address}:${GATEWAY_PORT} check`),
    '',
  ].join('\n');
}

/** The load balancer's process, its configuration written into the work folder. */
export function haproxyProcess(lb: Host, gateways: Host[], workDir: string, logDir: string): ClusterProcess {
  const file = join(workDir, 'haproxy.cfg');
  writeFileSync(file, haproxyConfig(lb, gateways, join(workDir, 'haproxy.sock')));
  // -db: stay in the foreground, so the harness owns the process; it prints nothing when ready.
  return new ClusterProcess({ name: 'haproxy', host: lb, command: 'haproxy', args: ['-db', '-f', file] }, logDir);
}
