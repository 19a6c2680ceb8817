import path from 'node:path';
import express from 'express';
import type { DocumentServer } from '../../rest-bridge/docs';
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
const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>GraphiQL · Healthcare Practice Platform</title>
<link rel="stylesheet" href="${url('graphiql.min.css')}">
<style>body { margin: 0; } #graphiql { height: 100vh; }</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
${SCRIPTS.map((name) => `<script src="${url(name)}"></script>`).join('\n')}
<script src="/graphiql/init.js"></script>
</body>
</html>
`;

// A file, not an inline script: helmet's default CSP is `script-src 'self'`. Queries and mutations
// are POSTs to /graphql; subscriptions go to /graphql/stream with graphql-sse's client in its
// distinct-connections mode (one SSE request per subscription, as the server serves them). Both
// send the headers typed in GraphiQL's headers editor. GraphiQL keeps its tabs, history (queries,
// variables, headers) and settings in its \`storage\`, localStorage by default: here it is a Map
// that dies with the page, so neither a key nor a query that may name a patient outlives the tab.
const INIT = `'use strict';
(function () {
  function memoryStorage() {
    var items = new Map();
    return {
      getItem: function (key) { return items.has(key) ? items.get(key) : null; },
      setItem: function (key, value) { items.set(key, String(value)); },
      removeItem: function (key) { items.delete(key); },
      clear: function () { items.clear(); },
      key: function (index) { var keys = Array.from(items.keys()); return index < keys.length ? keys[index] : null; },
      get length() { return items.size; },
    };
  }

  var TEMPLATE = JSON.stringify({ TENANT: '', 'API-KEY': '' }, null, 2);
  var MISSING = { errors: [{ message: 'Fill in TENANT and API-KEY in the Headers tab below, then run again (the refresh button on the left reloads the schema).' }] };

  function blank(headers, name) {
    var key = Object.keys(headers || {}).find(function (k) { return k.toLowerCase() === name; });
    return !key || String(headers[key]).trim() === '';
  }

  function isSubscription(params, documentAST) {
    if (!documentAST) return /^\\s*subscription\\b/.test(params.query || '');
    var operations = documentAST.definitions.filter(function (d) { return d.kind === 'OperationDefinition'; });
    var chosen = params.operationName
      ? operations.find(function (d) { return d.name && d.name.value === params.operationName; })
      : operations[0];
    return Boolean(chosen) && chosen.operation === 'subscription';
  }

  async function post(params, headers) {
    var response = await fetch('/graphql', {
      method: 'POST',
      credentials: 'omit',
      headers: Object.assign({}, headers, { 'content-type': 'application/json', accept: 'application/json' }),
      body: JSON.stringify(params),
    });
    var text = await response.text();
    try { return JSON.parse(text); } catch (e) { return { errors: [{ message: 'HTTP ' + response.status + ': ' + text }] }; }
  }

  // An async iterable whose return() ends the stream at once, even while it waits for an event.
  function subscribe(params, headers) {
    var client = graphqlSse.createClient({ url: '/graphql/stream', headers: headers, singleConnection: false, retryAttempts: 0 });
    var events = client.iterate(params);
    var iterator = {
      next: function () {
        return events.next().then(function (step) { if (step.done) client.dispose(); return step; }, function (error) { client.dispose(); throw error; });
      },
      return: function () {
        return Promise.resolve(events.return ? events.return() : undefined).finally(function () { client.dispose(); }).then(function () { return { done: true, value: undefined }; });
      },
    };
    iterator[Symbol.asyncIterator] = function () { return iterator; };
    return iterator;
  }

  function fetcher(params, options) {
    var headers = (options && options.headers) || {};
    if (blank(headers, 'tenant') || blank(headers, 'api-key')) return Promise.resolve(MISSING);
    return isSubscription(params, options && options.documentAST) ? subscribe(params, headers) : post(params, headers);
  }

  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      storage: memoryStorage(),
      defaultHeaders: TEMPLATE,
      headerEditorEnabled: true,
      shouldPersistHeaders: false,
      defaultEditorToolsVisibility: 'headers',
    }),
  );
})();
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
  router.get('/graphiql/init.js', charge, serve(INIT, CONTENT_TYPES['.js'], REVALIDATE));
  const assets = new Map(Object.entries(ASSETS).map(([name, found]) => [name, serve({ file: path.join(found.dir, found.file) }, CONTENT_TYPES[path.extname(name)], IMMUTABLE)]));
  router.get('/graphiql/assets/:name', (req, res, next) => {
    const asset = assets.get(req.params.name);
    if (!asset) return next();
    charge(req, res, (error?: unknown) => (error ? next(error) : asset(req, res, next)));
  });
  return router;
}
