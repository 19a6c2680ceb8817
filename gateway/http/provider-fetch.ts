import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { publicOnlyLookup, refusedAddress } from '../../subgraphs/tenant';

/** The most a provider's answer (discovery document, keys, tokens) may hold. */
const MAX_BYTES = 1024 * 1024;

/** What openid-client hands its `customFetch`. */
interface FetchOptions {
  body?: unknown;
  headers: Record<string, string>;
  method: string;
  redirect: 'manual';
  signal?: AbortSignal;
}

/**
 * The fetch openid-client uses for a tenant's identity provider (`customFetch`): an admin chooses
 * the issuer, so what it names must be a public host, as a webhook's must (the same public-only
 * lookup, checked on the address actually connected to), or the edge would probe the internal
 * network for whoever configures single sign-on. Redirects are not followed; answers are capped.
 */
export function publicProviderFetch(url: string, options: FetchOptions): Promise<Response> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  // An IP literal is connected to without a lookup, so it is checked here.
  if (isIP(host) && refusedAddress(host)) return Promise.reject(new Error('identity provider resolves to a non-public address'));
  const send = target.protocol === 'https:' ? https.request : target.protocol === 'http:' ? http.request : null;
  if (!send) return Promise.reject(new Error(`unsupported protocol ${target.protocol}`));
  const headers = { ...options.headers };
  if (options.body instanceof URLSearchParams && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
  return new Promise<Response>((resolve, reject) => {
    const request = send(target, { method: options.method, headers, lookup: publicOnlyLookup, agent: false, signal: options.signal }, (response) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > MAX_BYTES) return void request.destroy(new Error('identity provider answer too large'));
        chunks.push(chunk);
      });
      response.once('error', reject);
      response.once('end', () => {
        const status = response.statusCode ?? 502;
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
        resolve(new Response([101, 204, 205, 304].includes(status) ? null : Buffer.concat(chunks), { status, headers }));
      });
    });
    request.once('error', reject);
    request.end(bodyOf(options));
  });
}

/** A request body as bytes: openid-client sends forms as URLSearchParams, JSON as text. */
function bodyOf(options: FetchOptions): string | Buffer | undefined {
  const body = options.body;
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new Error('unsupported request body for an identity provider');
}
