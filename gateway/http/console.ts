import { readFileSync } from 'node:fs';
import path from 'node:path';
import express from 'express';
import { repoRoot } from '../../schema/paths';

/** The analyst console's own files (HTML, CSS, ES modules), checked in under `console/` and served as they are. */
const CONSOLE_DIR = path.join(repoRoot(), 'console');

// ECharts' "common" UMD build (line, bar, pie, the SVG renderer, aria, tooltip, legend) sets
// `window.echarts`: no bundler, no second build step. `?v=` changes with the package, so it is
// cached as immutable; the console's own files are revalidated (ETag) on every load.
const ECHARTS_DIR = path.join(path.dirname(require.resolve('echarts/package.json')), 'dist');
const ECHARTS_VERSION: string = require('echarts/package.json').version;

/**
 * The analyst console at `/console` (docs/console.md), with `pageHeaders` (a page's security headers): static files only, a client of `/graphql`
 * like any other, so it sits before authentication and, like `/docs`, counts against no rate limit.
 */
export function consoleRouter(pageHeaders: express.RequestHandler): express.Router {
  const page = readFileSync(path.join(CONSOLE_DIR, 'index.html'), 'utf8').replaceAll('{{ECHARTS_VERSION}}', ECHARTS_VERSION);
  const router = express.Router();
  router.get(['/console', '/console/'], pageHeaders, (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('html').send(page);
  });
  router.get('/console/vendor/echarts.js', (_req, res) => {
    res.sendFile('echarts.common.min.js', { root: ECHARTS_DIR, maxAge: '1y', immutable: true });
  });
  // `dotfiles` and `index` off: only the files themselves, never a listing or index.html twice.
  // Page headers on its files too: `/console/index.html` is the page again, and a page's CSP governs what it loads.
  router.use('/console', pageHeaders, express.static(CONSOLE_DIR, { index: false, dotfiles: 'ignore', fallthrough: true, cacheControl: true, maxAge: 0, redirect: false }));
  return router;
}
