import express from 'express';
import helmet from 'helmet';
import { docsRouter } from '../../../rest-bridge/docs';
import { documentHandler } from '../../../gateway/http/public-document';
import { listen, type ListeningApp } from '../../utils/listen';

let server: ListeningApp;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(docsRouter(helmet(), (_req, _res, next) => next(), documentHandler));
  server = await listen(app);
  base = server.base;
});

afterAll(() => server.close());

describe('docsRouter', () => {
  it.each(['/docs', '/docs/'])('serves the Swagger UI page at %s with local assets only', async (path) => {
    const res = await fetch(base + path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('src="/docs/assets/swagger-ui-bundle.js');
    expect(html).toContain('src="/docs/assets/swagger-ui-standalone-preset.js');
    expect(html).toContain('href="/docs/assets/swagger-ui.css');
    expect(html).toContain('src="/docs/init.js"');
    expect(html).not.toMatch(/https?:\/\//);
    // helmet's default CSP forbids inline scripts, so every script must have a src.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('serves the bundle with a long cache', async () => {
    const res = await fetch(`${base}/docs/assets/swagger-ui-bundle.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toMatch(/max-age=31536000/);
    expect((await res.text()).length).toBeGreaterThan(100_000);
    const css = await fetch(`${base}/docs/assets/swagger-ui.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('serves nothing else from the package', async () => {
    for (const file of ['index.html', 'swagger-initializer.js', 'package.json', '..%2Fpackage.json']) {
      expect((await fetch(`${base}/docs/assets/${file}`)).status).toBe(404);
    }
  });

  it('serves an initializer pointing Swagger UI at /openapi.json', async () => {
    const res = await fetch(`${base}/docs/init.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    const script = await res.text();
    expect(script).toContain('SwaggerUIBundle(');
    expect(script).toContain("url: '/openapi.json'");
    expect(script).toContain("dom_id: '#swagger-ui'");
  });
});
