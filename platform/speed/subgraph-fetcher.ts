import http from 'node:http';
import https from 'node:https';
import type { Fetcher, FetcherHeaders, FetcherRequestInit, FetcherResponse } from '@apollo/utils.fetcher';

/**
 * Idle connections to a subgraph are closed after this long, well before the service's own 65 s
 * keep-alive (platform/serve-subgraph.ts), so the gateway never sends on a socket the
 * service is closing.
 */
const IDLE_SOCKET_MS = 4_000;

/**
 * The gateway's HTTP client to subgraph services: node:http on keep-alive agents, the body read
 * whole, the request abandoned (its connection closed) when `init.signal` aborts. Apollo's
 * default (make-fetch-happen over node-fetch, with its cache and retry layers) cost the
 * distributed gateway more CPU per request than a peer gateway spent on all its work
 * (bench/RESULTS.md, peer-gateway). node:http stays under the http instrumentation, so the
 * client span and `traceparent` of docs/tracing.md are kept.
 */
export function createSubgraphFetcher(): Fetcher {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
    'https:': new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
  };
  return (url: string, init: FetcherRequestInit = {}) =>
    new Promise<FetcherResponse>((resolve, reject) => {
      const target = new URL(url);
      const agent = agents[target.protocol as keyof typeof agents];
      if (!agent) return reject(new Error(`unsupported subgraph URL protocol ${target.protocol}`));
      const signal = init.signal as AbortSignal | undefined;
      if (signal?.aborted) return reject(signal.reason);
      const fail = (error: unknown) => {
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      };
      const send = target.protocol === 'https:' ? https.request : http.request;
      const request = send(target, { method: init.method ?? 'GET', headers: init.headers, agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', fail);
        response.on('end', () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(bufferedResponse(url, response, Buffer.concat(chunks).toString('utf8')));
        });
      });
      // Destroying the request closes its connection: the subgraph service's own request signal
      // then aborts, and work it queued for this request is dropped (platform/request-signal.ts).
      const onAbort = () => {
        reject(signal!.reason);
        request.destroy(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      request.on('error', fail);
      request.end(init.body);
    });
}

/** A response whose body is already read: what RemoteGraphQLDataSource reads of it (status, a header, json or text). */
function bufferedResponse(url: string, response: http.IncomingMessage, body: string): FetcherResponse {
  const status = response.statusCode ?? 0;
  const headers = new ResponseHeaders(response.headers);
  return {
    bodyUsed: false,
    url,
    redirected: false,
    status,
    ok: status >= 200 && status < 300,
    statusText: response.statusMessage ?? '',
    headers,
    text: async () => body,
    json: async () => JSON.parse(body),
    arrayBuffer: async () => new TextEncoder().encode(body).buffer as ArrayBuffer,
    clone: () => bufferedResponse(url, response, body),
  };
}

/** The response's headers as node parsed them (names in lower case), read through the Fetch API's methods. */
class ResponseHeaders implements FetcherHeaders {
  constructor(private readonly raw: http.IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined;
  }

  set(name: string, value: string): void {
    this.raw[name.toLowerCase()] = value;
  }

  append(name: string, value: string): void {
    const current = this.get(name);
    this.set(name, current === null ? value : `${current}, ${value}`);
  }

  delete(name: string): void {
    delete this.raw[name.toLowerCase()];
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.raw).sort()) {
      const value = this.get(name);
      if (value !== null) yield [name, value];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}
