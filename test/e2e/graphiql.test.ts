import { baseUrl, createTestTenant, request } from '../utils/e2e';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe(`GraphiQL at GET /graphql (${process.env.E2E_MODE} mode)`, () => {
  it('a browser (Accept prefers text/html) gets the IDE page without TENANT or API-KEY, under the app CSP', async () => {
    const res = await request(`${baseUrl()}/graphql`, { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('vary')).toContain('Accept');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.text).toContain('<div id="graphiql" hidden>');
    // Every script is a same-origin file: no CDN, and no inline script for the CSP to block.
    const scripts = [...res.text.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attributes of scripts) expect(attributes).toMatch(/^ src="\/graphiql\//);
    expect(res.text).not.toMatch(/https?:\/\//);
    // Its requests may go to this origin only: no connect-src widens default-src 'self'.
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('content-security-policy')).not.toContain('connect-src');
  });

  it('signs people in with the session (its own form), and never asks for or sends an API key', async () => {
    const page = await request(`${baseUrl()}/graphql`, { headers: { accept: BROWSER_ACCEPT } });
    expect(page.text).toContain('<form id="sign-in-form"');
    for (const label of ['Tenant id', 'E-mail', 'Password', 'Two-factor code']) expect(page.text).toContain(`>${label}</label>`);
    const script = await request(`${baseUrl()}/graphiql/init.js`);
    expect(script.status).toBe(200);
    expect(script.text).toContain("fetch(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin'");
    expect(script.text).toContain("headers['x-csrf-token'] = session.csrfToken");
    expect(script.text).toContain('isHeadersEditorEnabled: false');
    for (const text of [page.text, script.text]) {
      expect(text).not.toMatch(/api-key/i);
      expect(text).not.toContain('TENANT');
    }
  });

  it('serves every asset the page names from local packages, cacheable as immutable', async () => {
    const page = await request(`${baseUrl()}/graphql`, { headers: { accept: 'text/html' } });
    const urls = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls).toEqual(expect.arrayContaining([expect.stringMatching(/graphiql\.min\.js\?v=3\./), expect.stringMatching(/graphiql\.min\.css/), '/graphiql/init.js']));
    for (const url of urls) {
      const asset = await fetch(`${baseUrl()}${url}`);
      expect([url, asset.status]).toEqual([url, 200]);
      expect(asset.headers.get('content-type')).toMatch(url.includes('.css') ? /^text\/css/ : /^(text|application)\/javascript/);
      if (url.includes('?v=')) expect(asset.headers.get('cache-control')).toContain('immutable');
      await asset.arrayBuffer();
    }
    expect((await request(`${baseUrl()}/graphiql/assets/package.json`)).status).toBe(404);
    expect((await request(`${baseUrl()}/graphiql/assets/..%2Fpackage.json`)).status).toBe(404);
  });

  it('an API GET (no Accept, */*, or JSON) still needs the headers: a 422 GraphQL error', async () => {
    for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html']) {
      const res = await request(`${baseUrl()}/graphql?query=${encodeURIComponent('{ publicTenant { id } }')}`, { headers: accept ? { accept } : {} });
      expect([accept, res.status]).toEqual([accept, 422]);
      expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(res.body.errors[0].extensions.validation.map((d: { loc: string[] }) => d.loc)).toEqual([['header', 'tenant'], ['header', 'api-key']]);
    }
  });

  it('an API GET and POST with the headers answer JSON as before, whatever the Accept', async () => {
    const tenant = await createTestTenant('GraphiQL Negotiation Clinic');
    const query = '{ publicTenant { name } }';
    const get = await request(`${baseUrl()}/graphql?query=${encodeURIComponent(query)}`, { headers: { ...tenant.headers, accept: 'application/json', 'apollo-require-preflight': '1' } });
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ data: { publicTenant: { name: 'GraphiQL Negotiation Clinic' } } });
    const post = await request(`${baseUrl()}/graphql`, {
      method: 'POST',
      headers: { ...tenant.headers, accept: BROWSER_ACCEPT, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    expect(post.status).toBe(200);
    expect(post.body).toEqual({ data: { publicTenant: { name: 'GraphiQL Negotiation Clinic' } } });
  });
});
