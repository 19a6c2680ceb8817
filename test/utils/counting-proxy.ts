import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request that reached the subgraph behind the proxy. */
export interface ProxiedRequest {
  path: string;
  tenantId: string | null;
  body: string;
}

/** An HTTP proxy in front of a subgraph service that records what passes and can fail on demand. */
export interface CountingProxy {
  /** `http://127.0.0.1:<port>`, to give the gateway as the subgraph's URL. */
  url: string;
  /** Every `/graphql` request forwarded so far. */
  readonly seen: ProxiedRequest[];
  /** Answers the next `count` requests 502 itself, as a subgraph that went away would through a load balancer. */
  failNext(count?: number): void;
  close(): Promise<void>;
}

/** Starts a proxy to `target` (a subgraph service's root URL) on a free loopback port. */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const seen: ProxiedRequest[] = [];
  let failures = 0;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const tenant = req.headers['x-tenant-id'];
    if (req.url?.startsWith('/graphql')) seen.push({ path: req.url, tenantId: typeof tenant === 'string' ? tenant : null, body });
    if (failures > 0) {
      failures--;
      res.writeHead(502, { 'content-type': 'application/json' }).end('{"detail":"bad gateway"}');
      return;
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name))) as Record<string, string>;
    try {
      const upstream = await fetch(new URL(req.url ?? '/', target), { method: req.method, headers, body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body });
      const text = await upstream.text();
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(text);
    } catch {
      res.writeHead(502, { 'content-type': 'application/json' }).end('{"detail":"upstream unreachable"}');
    }
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    failNext: (count = 1) => void (failures += count),
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
