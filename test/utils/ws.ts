import { createClient, type Client, type SubscribePayload } from 'graphql-ws';
import WebSocket from 'ws';

/** The `/graphql` WebSocket URL of a base HTTP URL. */
export const wsUrl = (base: string): string => `${base.replace(/^http/, 'ws')}/graphql`;

/** A graphql-ws client as front-ends make one (one socket, no retries), with the ws package as its WebSocket. */
export function wsClient(base: string, connectionParams: Record<string, unknown>, headers: Record<string, string> = {}): Client {
  // graphql-ws builds the socket as `new WebSocket(url, protocol)`: headers need a subclass.
  class WithHeaders extends WebSocket {
    constructor(url: string, protocol: string) {
      super(url, protocol, { headers });
    }
  }
  return createClient({ url: wsUrl(base), webSocketImpl: WithHeaders, connectionParams, retryAttempts: 0, lazy: true });
}

/** Every result of one operation until it completes, or what ended it otherwise (GraphQL errors, or the socket's close event). */
export async function collect(client: Client, payload: SubscribePayload): Promise<{ results: any[]; error?: any }> {
  const results: any[] = [];
  try {
    for await (const result of client.iterate(payload)) results.push(result);
    return { results };
  } catch (error) {
    return { results, error };
  }
}

/** A raw `graphql-transport-ws` socket: sends `connection_init` with `payload` once open. */
export interface RawSocket {
  socket: WebSocket;
  /** Every message received, parsed. */
  messages: any[];
  /** The close code and reason, once closed. */
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves with the first message of `type` (and `id`, if given). */
  message(type: string, id?: string): Promise<any>;
}

/** Opens a raw socket to `/graphql` and initialises it with `payload`. */
export function rawSocket(base: string, payload: Record<string, unknown> | null, headers: Record<string, string> = {}): RawSocket {
  const socket = new WebSocket(wsUrl(base), 'graphql-transport-ws', { headers });
  const messages: any[] = [];
  const waiting: { type: string; id?: string; resolve: (m: any) => void }[] = [];
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    messages.push(message);
    for (const w of waiting.filter((w) => w.type === message.type && (w.id === undefined || w.id === message.id))) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve(message);
    }
  });
  socket.on('error', () => undefined);
  if (payload) socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload })));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
  return {
    socket,
    messages,
    closed,
    message: (type, id) => {
      const seen = messages.find((m) => m.type === type && (id === undefined || m.id === id));
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiting.push({ type, id, resolve }));
    },
  };
}
