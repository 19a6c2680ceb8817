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

/** The browsable API reference at `/docs` (Swagger UI over `/openapi.json`), served from local assets only; the page gets `pageHeaders` (a page's security headers). */
export function docsRouter(pageHeaders: express.RequestHandler): express.Router {
  const router = express.Router();
  router.get('/docs', pageHeaders, (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('html').send(PAGE);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('text/javascript').send(INIT);
  });
  router.get('/docs/assets/:file', (req, res, next) => {
    if (!ASSETS.has(req.params.file)) return next();
    res.sendFile(req.params.file, { root: ASSET_DIR, maxAge: '1y', immutable: true });
  });
  return router;
}
