import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express from 'express';
import type { DocumentServer } from '../../rest-bridge/docs';
import { repoRoot } from '../../schema/paths';
import { CONTENT_TYPES, IMMUTABLE, REVALIDATE } from './public-document';

/** The analyst console's own files (HTML, CSS, ES modules), checked in under `console/` and served as they are. */
const CONSOLE_DIR = path.join(repoRoot(), 'console');

// ECharts' "common" UMD build (line, bar, pie, the SVG renderer, aria, tooltip, legend) sets
// `window.echarts`: no bundler, no second build step. `?v=` changes with the package, so it is
// cached as immutable; the console's own files are revalidated (ETag) on every load.
const ECHARTS_FILE = path.join(path.dirname(require.resolve('echarts/package.json')), 'dist', 'echarts.common.min.js');
const ECHARTS_VERSION: string = require('echarts/package.json').version;

/** The console's files by URL path under `/console/` (`js/main.js`), listed once: only these are served, never a listing or a dotfile. */
function consoleFiles(): string[] {
  return readdirSync(CONSOLE_DIR, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.startsWith('.') && CONTENT_TYPES[path.extname(entry.name)])
    .map((entry) => path.relative(CONSOLE_DIR, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => file !== 'index.html' && !file.split('/').some((part) => part.startsWith('.')));
}

/**
 * The analyst console at `/console` (docs/console.md), with `pageHeaders` (a page's security headers): static files only, a client of `/graphql`
 * like any other, so it sits before authentication; each file passes `charge` (the client address's budget for public documents) first.
 */
export function consoleRouter(pageHeaders: express.RequestHandler, charge: express.RequestHandler, serve: DocumentServer): express.Router {
  const page = serve(readFileSync(path.join(CONSOLE_DIR, 'index.html'), 'utf8').replaceAll('{{ECHARTS_VERSION}}', ECHARTS_VERSION), CONTENT_TYPES['.html'], REVALIDATE);
  const files = new Map(consoleFiles().map((file) => [`/console/${file}`, serve({ file: path.join(CONSOLE_DIR, file) }, CONTENT_TYPES[path.extname(file)], REVALIDATE)]));
  const router = express.Router();
  // `/console/index.html` is the page too, as the static server it replaces answered it.
  router.get(['/console', '/console/', '/console/index.html'], charge, pageHeaders, page);
  router.get('/console/vendor/echarts.js', charge, serve({ file: ECHARTS_FILE }, CONTENT_TYPES['.js'], IMMUTABLE));
  // Page headers on its files too: a page's CSP governs what it loads.
  router.get('/console/*file', (req, res, next) => {
    const file = files.get(req.path);
    if (!file) return next();
    charge(req, res, (error?: unknown) => (error ? next(error) : pageHeaders(req, res, () => file(req, res, next))));
  });
  return router;
}
