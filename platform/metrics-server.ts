import http, { type Server } from 'node:http';
import type { Logger } from 'pino';
import { register } from 'prom-client';

/** A listening metrics port. */
export interface MetricsServer {
  server: Server;
  /** Where Prometheus scrapes, e.g. `http://127.0.0.1:9464/metrics`. */
  url: string;
  close(): Promise<void>;
}

/**
 * METRICS_PORT (the gateway's, and a subgraph service's): a plain HTTP server answering `GET /metrics` with `scrape()`'s text and 404 to
 * anything else. No authentication: like Prometheus exporters, it is meant for a private network
 * (METRICS_HOST chooses the interface); the operator-token `/metrics` of the API port is the other way in.
 */
export async function serveMetrics(port: number, host: string, scrape: () => Promise<string>, log: Logger): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'Not Found' }));
      return;
    }
    scrape().then(
      (text) => res.writeHead(200, { 'content-type': register.contentType }).end(req.method === 'HEAD' ? undefined : text),
      (error) => {
        log.error({ err: error }, 'metrics scrape failed');
        res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'Metrics unavailable' }));
      },
    );
  });
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject).listen(port, host));
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const url = `http://${shown}:${actual}/metrics`;
  log.info({ url }, 'metrics listening');
  return { server, url, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
