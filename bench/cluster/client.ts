import { connect } from 'node:net';
import { join } from 'node:path';
import type { Cluster } from './cluster';

/** An answer as the client host saw it. */
export interface ClientAnswer {
  status: number;
  body: string;
}

/** One HTTP request from the client host to the load balancer, or to `base` (a gateway host itself), by curl in its namespace. */
export function clientRequest(cluster: Cluster, path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown; base?: string } = {}): ClientAnswer {
  const args = ['-s', '--max-time', '10', '-X', init.method ?? 'GET', '-w', '\n%{http_code}'];
  for (const [name, value] of Object.entries(init.headers ?? {})) args.push('-H', `${name}: ${value}`);
  if (init.body !== undefined) args.push('-H', 'content-type: application/json', '--data-binary', JSON.stringify(init.body));
  const output = cluster.exec(cluster.host('client'), 'curl', [...args, `${init.base ?? cluster.url}${path}`]);
  const cut = output.lastIndexOf('\n');
  return { status: Number(output.slice(cut + 1)), body: output.slice(0, cut) };
}

/** HAProxy's view of its gateways (`show stat` on its admin socket): status and sessions served per server. */
export function loadBalancerStats(cluster: Cluster): Promise<{ server: string; status: string; served: number }[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(join(cluster.workDir, 'haproxy.sock'));
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const [header, ...rows] = text.trim().split('\n');
      const columns = header.replace(/^# /, '').split(',');
      const at = (row: string[], name: string) => row[columns.indexOf(name)];
      resolve(
        rows
          .map((line) => line.split(','))
          .filter((row) => at(row, 'pxname') === 'gateways' && !['BACKEND', 'FRONTEND'].includes(at(row, 'svname')))
          .map((row) => ({ server: at(row, 'svname'), status: at(row, 'status'), served: Number(at(row, 'stot')) })),
      );
    });
    socket.end('show stat\n');
  });
}
