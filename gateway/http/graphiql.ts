import path from 'node:path';
import express from 'express';
import type { DocumentServer } from '../../rest-bridge/docs';
import { GRAPHIQL_SCRIPT } from './graphiql-script';
import { CONTENT_TYPES, IMMUTABLE, REVALIDATE } from './public-document';

/** A browser file served under `/graphiql/assets/`: which package holds it, where, and at which version. */
interface Asset {
  dir: string;
  file: string;
  version: string;
}

// GraphiQL 3 is the last line with a UMD bundle (4 and later need a bundler, as does React 19), so
// the page loads React 18's UMD builds and graphql-sse's browser build beside it: no build step.
function asset(pkg: string, file: string): Asset {
  const manifest = require.resolve(`${pkg}/package.json`);
  return { dir: path.dirname(manifest), file, version: require(manifest).version };
}

const ASSETS: Record<string, Asset> = {
  'react.production.min.js': asset('react', 'umd/react.production.min.js'),
  'react-dom.production.min.js': asset('react-dom', 'umd/react-dom.production.min.js'),
  'graphql-sse.min.js': asset('graphql-sse', 'umd/graphql-sse.min.js'),
  'graphiql.min.js': asset('graphiql', 'graphiql.min.js'),
  'graphiql.min.css': asset('graphiql', 'graphiql.min.css'),
};

// `?v=` changes with the package, which lets the assets be cached as immutable.
const url = (name: string) => `/graphiql/assets/${name}?v=${ASSETS[name].version}`;
const SCRIPTS = ['react.production.min.js', 'react-dom.production.min.js', 'graphql-sse.min.js', 'graphiql.min.js'];

// An inline <style> is allowed (helmet's CSP has style-src 'unsafe-inline'); an inline script is not.
// The sign-in form is the page's own markup; /graphiql/init.js shows it or GraphiQL (graphiql-script.ts).
const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphiQL · Healthcare Practice Platform</title>
<link rel="stylesheet" href="${url('graphiql.min.css')}">
<style>
body { margin: 0; height: 100vh; display: flex; flex-direction: column; font-family: system-ui, sans-serif; }
#graphiql { flex: 1; min-height: 0; }
#bar { display: flex; gap: 1rem; align-items: center; padding: 0.35rem 1rem; background: #15263f; color: #fff; font-size: 0.9rem; }
#bar button { margin-left: auto; font: inherit; color: #dbe6f7; background: none; border: 0; text-decoration: underline; cursor: pointer; }
#sign-in, #notice { max-width: 28rem; margin: 3rem auto; padding: 0 1rem; }
#sign-in label { display: block; font-weight: 600; margin: 0.8rem 0 0.2rem; }
#sign-in input { width: 100%; box-sizing: border-box; font: inherit; padding: 0.35rem 0.5rem; }
#sign-in button { margin-top: 1rem; font: inherit; padding: 0.4rem 1rem; }
#sign-in-error { background: #fdecec; color: #a4161a; border: 1px solid #f1b0b0; padding: 0.6rem 0.8rem; }
[hidden] { display: none !important; }
</style>
</head>
<body>
<header id="bar" hidden><strong>GraphiQL</strong><span id="who"></span><button type="button" id="sign-out">Sign out</button></header>
<main id="sign-in" hidden>
<form id="sign-in-form" novalidate aria-labelledby="sign-in-title">
<h1 id="sign-in-title">Sign in</h1>
<p>GraphiQL runs your queries as you, with your role's scopes: sign in with your clinic's tenant id, your e-mail and password, as at the analyst console (signed in at one, you are at the other).</p>
<div id="sign-in-error" role="alert" hidden></div>
<label for="tenant">Tenant id</label><input id="tenant" name="tenant" autocomplete="off" spellcheck="false" required>
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" spellcheck="false" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<div id="code-field" hidden><label for="code">Two-factor code</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" spellcheck="false" maxlength="10"></div>
<button type="submit" id="sign-in-button">Sign in</button>
</form>
</main>
<p id="notice" role="alert" hidden>Your clinic asks for a second factor, which you have not set up yet: set it up in the analyst console (<code>/console</code>), then reload this page.</p>
<div id="graphiql" hidden>Loading GraphiQL…</div>
${SCRIPTS.map((name) => `<script src="${url(name)}"></script>`).join('\n')}
<script src="/graphiql/init.js"></script>
</body>
</html>
`;

/**
 * GraphiQL at `GET /graphql` for a browser (an Accept that prefers text/html), served from local
 * assets only, with `pageHeaders` (a page's security headers); every other request to /graphql goes on
 * to the API untouched. Each of its files passes `charge` (the client address's budget for public documents) first.
 */
export function graphiqlRouter(pageHeaders: express.RequestHandler, charge: express.RequestHandler, serve: DocumentServer): express.Router {
  const router = express.Router();
  const page = serve(PAGE, CONTENT_TYPES['.html'], REVALIDATE);
  router.get('/graphql', (req, res, next) => {
    res.vary('Accept');
    if (req.accepts(['application/graphql-response+json', 'application/json', 'text/html']) !== 'text/html') return next();
    charge(req, res, (error?: unknown) => (error ? next(error) : pageHeaders(req, res, () => page(req, res, next))));
  });
  router.get('/graphiql/init.js', charge, serve(GRAPHIQL_SCRIPT, CONTENT_TYPES['.js'], REVALIDATE));
  const assets = new Map(Object.entries(ASSETS).map(([name, found]) => [name, serve({ file: path.join(found.dir, found.file) }, CONTENT_TYPES[path.extname(name)], IMMUTABLE)]));
  router.get('/graphiql/assets/:name', (req, res, next) => {
    const asset = assets.get(req.params.name);
    if (!asset) return next();
    charge(req, res, (error?: unknown) => (error ? next(error) : asset(req, res, next)));
  });
  return router;
}
