import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One delivery as the receiver saw it, verified with standardwebhooks' own `verify`. */
export interface Received {
  id: string;
  timestamp: string;
  verified: boolean;
  payload: { type: string; timestamp: string; livemode: boolean; data: Record<string, unknown> } | null;
  at: number;
}

/** A real HTTP receiver on 127.0.0.1 whose answers a test scripts (status per call, or a hang). */
export interface WebhookReceiver {
  url: string;
  received: Received[];
  /** Answers for the next calls, in order; afterwards 200. A number is a status, 'hang' never answers. */
  script: (number | 'hang')[];
  /** Seen requests currently being answered slowly. */
  inFlight: number;
  maxInFlight: number;
  close(): Promise<void>;
}

/** Starts a receiver that verifies every request against `secret()` (read per request, so rotation can be tested). */
export async function startWebhookReceiver(secret: () => string | null, port = 0): Promise<WebhookReceiver> {
  const state: WebhookReceiver = { url: '', received: [], script: [], inFlight: 0, maxInFlight: 0, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = { 'webhook-id': String(req.headers['webhook-id']), 'webhook-timestamp': String(req.headers['webhook-timestamp']), 'webhook-signature': String(req.headers['webhook-signature']) };
      let payload: Received['payload'] = null;
      let verified = false;
      const key = secret();
      try {
        if (key) {
          payload = new Webhook(key).verify(body, headers) as Received['payload'];
          verified = true;
        }
      } catch {
        verified = false;
      }
      state.received.push({ id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], verified, payload, at: Date.now() });
      const answer = state.script.shift() ?? 200;
      state.inFlight += 1;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      if (answer === 'hang') return;
      setTimeout(() => {
        state.inFlight -= 1;
        res.writeHead(answer).end();
      }, 5);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

/** A receiver that accepts every connection, reads the request and never answers (a hung server). */
export interface DeadReceiver {
  url: string;
  /** Requests seen, in order, each with how many connections were open when it arrived (its own included). */
  requests: { id: string; openAtArrival: number }[];
  /** Connections open now, and the most ever open at once. */
  open: number;
  maxOpen: number;
  close(): Promise<void>;
}

/** Starts a dead receiver on 127.0.0.1: every request stays unanswered until the caller gives up and closes the connection. */
export async function startDeadReceiver(): Promise<DeadReceiver> {
  const state: DeadReceiver = { url: '', requests: [], open: 0, maxOpen: 0, close: async () => undefined };
  const server: Server = createServer((req) => {
    req.resume();
    state.requests.push({ id: String(req.headers['webhook-id']), openAtArrival: state.open });
  });
  server.on('connection', (socket) => {
    state.open += 1;
    state.maxOpen = Math.max(state.maxOpen, state.open);
    socket.once('close', () => (state.open -= 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
