import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { internalAddressError, publicOnlyLookup, refusedAddress } from './safe-lookup';

// Keep-alive agents whose connections resolve through the public-only lookup, and (ALLOW_HTTP_WEBHOOKS=1) ones that do not.
const publicAgents = {
  'http:': new http.Agent({ keepAlive: true, lookup: publicOnlyLookup }),
  'https:': new https.Agent({ keepAlive: true, lookup: publicOnlyLookup }),
};
const anyAgents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

/** The part of a receiver's answer the dispatcher acts on. */
export interface PostResult {
  status: number;
  retryAfter: string | null;
}

/**
 * POSTs one webhook body. Redirects are not followed (a 3xx is retried like any failure), the
 * response body is discarded, and the whole exchange is bounded by `timeoutMs`.
 */
export function postWebhook(url: string, headers: Record<string, string>, body: string, options: { timeoutMs: number; allowInternal: boolean }): Promise<PostResult> {
  const { timeoutMs, allowInternal } = options;
  const target = new URL(url);
  const agent = (allowInternal ? anyAgents : publicAgents)[target.protocol as keyof typeof publicAgents];
  if (!agent) return Promise.reject(new Error(`unsupported protocol ${target.protocol}`));
  // An IP literal is connected to without any lookup, so it is checked here.
  if (!allowInternal && isIP(target.hostname.replace(/^\[|\]$/g, '')) && refusedAddress(target.hostname)) return Promise.reject(internalAddressError());
  const send = target.protocol === 'https:' ? https.request : http.request;
  return new Promise<PostResult>((resolve, reject) => {
    const request = send(
      target,
      { method: 'POST', agent, signal: AbortSignal.timeout(timeoutMs), headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (response) => {
        response.resume();
        response.once('end', () => resolve({ status: response.statusCode ?? 0, retryAfter: (response.headers['retry-after'] as string | undefined) ?? null }));
        response.once('error', reject);
      },
    );
    request.once('error', reject);
    request.end(body);
  });
}
