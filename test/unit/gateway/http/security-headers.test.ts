import express from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import { API_HEADERS, PAGE_HEADERS, securityHeaders } from '../../../../gateway/http/security-headers';
import { listen, type ListeningApp } from '../../../utils/listen';

/** The app's two sets (gateway/http/app.ts) and helmet's defaults. */
const OPTIONS: HelmetOptions[] = [PAGE_HEADERS, API_HEADERS, {}];

/** A server answering `/` with the given middleware first, as the edge mounts it. */
async function serve(middleware: express.RequestHandler): Promise<ListeningApp> {
  const app = express();
  app.use(middleware);
  app.get('/', (_req, res) => void res.json({ ok: true }));
  return listen(app);
}

/** Response headers that are the same on every request (no date, no etag). */
async function stableHeaders(base: string): Promise<[string, string][]> {
  const res = await fetch(base);
  await res.text();
  return [...res.headers].filter(([name]) => !['date', 'etag', 'keep-alive', 'connection'].includes(name));
}

describe('securityHeaders', () => {
  it.each(OPTIONS)('writes exactly what helmet writes per request (options %j)', async (options) => {
    const [recorded, live] = await Promise.all([serve(securityHeaders(options)), serve(helmet(options))]);
    try {
      const expected = await stableHeaders(live.base);
      expect(expected.map(([name]) => name)).toContain('content-security-policy');
      expect(await stableHeaders(recorded.base)).toEqual(expected);
    } finally {
      await Promise.all([recorded.close(), live.close()]);
    }
  });

  it('follows the options: a CSP directive turned off is not written', async () => {
    const server = await serve(securityHeaders(OPTIONS[0]!));
    try {
      const csp = new Map(await stableHeaders(server.base)).get('content-security-policy');
      expect(csp).toContain("default-src 'self'");
      expect(csp).not.toContain('upgrade-insecure-requests');
    } finally {
      await server.close();
    }
  });

  it("the API's set is OWASP's REST list and same-origin CORP, nothing for documents", async () => {
    const server = await serve(securityHeaders(API_HEADERS));
    try {
      const headers = new Map(await stableHeaders(server.base));
      expect([...headers.keys()].filter((name) => name !== 'content-type' && name !== 'content-length').sort()).toEqual([
        'content-security-policy',
        'cross-origin-resource-policy',
        'strict-transport-security',
        'x-content-type-options',
        'x-frame-options',
      ]);
      expect(headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
      expect(headers.get('x-frame-options')).toBe('DENY');
    } finally {
      await server.close();
    }
  });

  it('refuses options helmet cannot answer once: a directive computed per request', () => {
    // A function directive (a nonce) is per request; recording it once would freeze one value.
    expect(() => securityHeaders({ contentSecurityPolicy: { directives: { scriptSrc: [(_req, res) => `'nonce-${String((res as { locals?: unknown }).locals)}'`] } } })).toThrow();
  });
});
