import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A receiver for load: records when each event id arrived, verifies a sample of signatures, answers 204 at once. */
export interface WebhookSink {
  url: string;
  arrivals: Map<string, number>;
  /** Requests whose id had already arrived (retries after a lost answer would show here). */
  duplicates: number;
  verified: number;
  failedVerification: number;
  close(): Promise<void>;
}

/**
 * Starts the sink on 127.0.0.1; every `verifyEvery`-th request's signature is checked with
 * standardwebhooks, against the secret `secret` gives for the request's path (one path per endpoint).
 */
export async function startWebhookSink(secret: (path: string) => string, verifyEvery = 100): Promise<WebhookSink> {
  const sink: WebhookSink = { url: '', arrivals: new Map(), duplicates: 0, verified: 0, failedVerification: 0, close: async () => undefined };
  let seen = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      if (sink.arrivals.has(id)) sink.duplicates += 1;
      else sink.arrivals.set(id, Date.now());
      seen += 1;
      if (seen % verifyEvery === 0) {
        try {
          new Webhook(secret(req.url ?? '')).verify(Buffer.concat(chunks).toString('utf8'), {
            'webhook-id': id,
            'webhook-timestamp': String(req.headers['webhook-timestamp']),
            'webhook-signature': String(req.headers['webhook-signature']),
          });
          sink.verified += 1;
        } catch {
          sink.failedVerification += 1;
        }
      }
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sink.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  sink.close = () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return sink;
}
