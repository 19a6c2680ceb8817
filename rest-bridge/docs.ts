import path from 'node:path';
import express from 'express';

// `require('swagger-ui-dist').getAbsoluteFSPath()` would load the 1.5 MB browser bundle into
// Node just to learn a directory; the package's own location gives the same path.
const ASSET_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const VERSION: string = require('swagger-ui-dist/package.json').version;
const ASSETS = new Set(['swagger-ui.css', 'index.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js']);

// Absolute URLs so the page works at `/docs` and `/docs/` alike; `?v=` changes with the package,
// which lets the assets be cached as immutable.
const asset = (file: string) => `/docs/assets/${file}?v=${VERSION}`;

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Healthcare Practice Platform API</title>
<link rel="stylesheet" href="${asset('swagger-ui.css')}">
<link rel="stylesheet" href="${asset('index.css')}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${asset('swagger-ui-bundle.js')}"></script>
<script src="${asset('swagger-ui-standalone-preset.js')}"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

// A file, not an inline script: helmet's default CSP is `script-src 'self'`. The validator badge
// is off because it loads an image from validator.swagger.io, which `img-src 'self' data:` blocks.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  plugins: [SwaggerUIBundle.plugins.DownloadUrl],
  layout: 'StandaloneLayout',
});
`;

/**
 * Serves one public document: `source` (text, or a file read on first use) as `contentType`, with
 * `cacheControl`. The gateway gives one that prepares it once, compresses it and answers validators.
 */
export type DocumentServer = (source: string | { file: string }, contentType: string, cacheControl: string) => express.RequestHandler;

/**
 * The browsable API reference at `/docs` (Swagger UI over `/openapi.json`), served from local assets only; the page gets `pageHeaders`
 * (a page's security headers), and every file passes `charge` (the client address's budget) first.
 */
export function docsRouter(pageHeaders: express.RequestHandler, charge: express.RequestHandler, serve: DocumentServer): express.Router {
  const router = express.Router();
  router.get('/docs', charge, pageHeaders, serve(PAGE, 'text/html; charset=utf-8', 'no-cache'));
  router.get('/docs/init.js', charge, serve(INIT, 'text/javascript; charset=utf-8', 'no-cache'));
  const assets = new Map([...ASSETS].map((file) => [file, serve({ file: path.join(ASSET_DIR, file) }, file.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable')]));
  router.get('/docs/assets/:file', (req, res, next) => {
    const asset = assets.get(req.params.file);
    if (!asset) return next();
    charge(req, res, (error?: unknown) => (error ? next(error) : asset(req, res, next)));
  });
  return router;
}
