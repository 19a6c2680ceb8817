/**
 * `/graphiql/init.js`, the GraphiQL page's script: a file, not an inline script, as helmet's CSP is
 * `script-src 'self'`. It signs a person in with the session of docs/access.md (the same cookie as
 * the console's, so a person signed in at either is signed in at both) and never holds an API key:
 * GET /auth/session on load; if nobody is signed in, the page's form posts to /auth/sign-in (a TOTP
 * code field once the server asks for one); every request is same-origin with the cookie, and the
 * session's CSRF token (kept in this script's memory) goes as X-CSRF-Token. Queries and mutations
 * are POSTs to /graphql; subscriptions go to /graphql/stream with graphql-sse's client in its
 * distinct-connections mode (one SSE request per subscription, as the server serves them).
 *
 * GraphiQL keeps its tabs, history and settings in its `storage`, localStorage by default: here it
 * is a Map that dies with the page, emptied at sign-out and when another person signs in, so a
 * query that may name a patient outlives neither the tab nor the person. The headers editor is off:
 * the session is the credential, and a key typed there would stand in for it.
 */
export const GRAPHIQL_SCRIPT = `'use strict';
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

  var SESSION_OVER = 'Your session has ended (signed out, idle for too long, or your access changed): sign in again.';
  var UNREACHABLE = 'Cannot reach the server: check the connection and try again.';
  var NO_COOKIE = 'The server accepted the sign-in, but this browser did not keep the session cookie, which is sent over HTTPS only: open this page at an https:// address (or at http://localhost).';
  var storage = memoryStorage();
  var session = null;
  var person = null;
  var root = null;
  function $(id) { return document.getElementById(id); }

  // One same-origin request: the cookie goes along, and the CSRF token on anything but a GET.
  function send(path, method, body) {
    var headers = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET' && session) headers['x-csrf-token'] = session.csrfToken;
    return fetch(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin', cache: 'no-store' });
  }

  function readJson(response) { return response.json().catch(function () { return null; }); }
  function wait(seconds) { return !seconds ? 'a few minutes' : seconds >= 120 ? 'about ' + Math.ceil(seconds / 60) + ' minutes' : seconds + ' seconds'; }

  function showError(message) {
    $('sign-in-error').textContent = message || '';
    $('sign-in-error').hidden = !message;
  }

  function showSignIn(reason) {
    session = null;
    if (root) root.unmount();
    root = null;
    $('bar').hidden = true;
    $('graphiql').hidden = true;
    $('sign-in').hidden = false;
    showError(reason);
    $('tenant').focus();
  }

  function isSubscription(params, documentAST) {
    if (!documentAST) return /^\\s*subscription\\b/.test(params.query || '');
    var operations = documentAST.definitions.filter(function (d) { return d.kind === 'OperationDefinition'; });
    var chosen = params.operationName
      ? operations.find(function (d) { return d.name && d.name.value === params.operationName; })
      : operations[0];
    return Boolean(chosen) && chosen.operation === 'subscription';
  }

  async function post(params) {
    var response;
    try { response = await send('/graphql', 'POST', params); } catch (e) { return { errors: [{ message: UNREACHABLE }] }; }
    if (response.status === 401) {
      // After this turn, so that GraphiQL shows the answer before the form replaces it.
      setTimeout(function () { showSignIn(SESSION_OVER); });
      return { errors: [{ message: SESSION_OVER }] };
    }
    var text = await response.text();
    var data;
    try { data = JSON.parse(text); } catch (e) { return { errors: [{ message: 'HTTP ' + response.status + ': ' + text }] }; }
    // The edge's refusals (a CSRF token refused, the budget spent) are GraphQL errors with a code (docs/api.md, Errors):
    // shown as they are, with the status, which says the operation never ran.
    if (data && Array.isArray(data.errors) && !data.data && !response.ok) {
      return { errors: data.errors.map(function (e) { return Object.assign({}, e, { message: e.message + ' (HTTP ' + response.status + ')' }); }) };
    }
    return data;
  }

  // An async iterable whose return() ends the stream at once, even while it waits for an event.
  function subscribe(params) {
    var client = graphqlSse.createClient({ url: '/graphql/stream', headers: { 'x-csrf-token': session.csrfToken }, credentials: 'same-origin', singleConnection: false, retryAttempts: 0 });
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
    if (!session) return Promise.resolve({ errors: [{ message: SESSION_OVER }] });
    return isSubscription(params, options && options.documentAST) ? subscribe(params) : post(params);
  }

  function showSignedIn() {
    var who = session.tenantId + '/' + session.user.id;
    // Another person's tabs and history are not theirs to see.
    if (who !== person) storage.clear();
    person = who;
    $('sign-in').hidden = true;
    $('bar').hidden = false;
    $('who').textContent = 'Signed in to tenant ' + session.tenantId + ' as ' + session.user.role;
    $('notice').hidden = !session.twoFactorPending;
    $('graphiql').hidden = session.twoFactorPending;
    // A session that must first enrol a second factor can do nothing else (docs/access.md); the console enrols.
    if (session.twoFactorPending) return;
    root = ReactDOM.createRoot($('graphiql'));
    root.render(
      React.createElement(GraphiQL, {
        fetcher: fetcher,
        storage: storage,
        isHeadersEditorEnabled: false,
        shouldPersistHeaders: false,
        showPersistHeadersSettings: false,
      }),
    );
  }

  // Takes up the session the browser holds (its cookie outlives a reload), or asks to sign in.
  // Browsers keep a Secure cookie only from https:// or localhost: right after a sign-in, none means plain HTTP elsewhere.
  async function start(justSignedIn) {
    var response;
    try { response = await send('/auth/session', 'GET'); } catch (e) { return showSignIn(UNREACHABLE); }
    if (response.status === 401) return showSignIn(justSignedIn ? NO_COOKIE : null);
    if (!response.ok) return showSignIn('The server answered HTTP ' + response.status + ': reload the page to try again.');
    session = await response.json();
    showSignedIn();
  }

  function signInMessage(status, detail, retryAfter, withCode) {
    if (status === 401 && detail.indexOf('A two-factor code is required') === 0) return 'Your account needs a code too: type the six-digit code your authenticator app shows.';
    if (status === 401) return withCode ? 'The e-mail, password or code was not accepted. Check them and try again.' : 'The e-mail or password was not accepted for this tenant. Check them and try again.';
    if (status === 429) return 'Too many failed sign-ins: wait ' + wait(Number(retryAfter)) + ', then try again.';
    if (status === 422) return 'Type the tenant id, your e-mail and your password.';
    return 'The server answered HTTP ' + status + (detail ? ': ' + detail : '') + '.';
  }

  $('sign-in-form').addEventListener('submit', async function (event) {
    event.preventDefault();
    var withCode = !$('code-field').hidden;
    var body = { tenantId: $('tenant').value.trim(), email: $('email').value.trim(), password: $('password').value };
    if (withCode) body.code = $('code').value.trim();
    if (!body.tenantId || !body.email || !body.password) return showError('Type the tenant id, your e-mail and your password.');
    var button = $('sign-in-button');
    button.disabled = true;
    showError(null);
    try {
      var response = await send('/auth/sign-in', 'POST', body);
      if (response.ok) {
        $('password').value = '';
        $('code').value = '';
        return await start(true);
      }
      var data = await readJson(response);
      var detail = data && typeof data.detail === 'string' ? data.detail : '';
      var codeAsked = response.status === 401 && detail.indexOf('A two-factor code is required') === 0;
      if (codeAsked) $('code-field').hidden = false;
      showError(signInMessage(response.status, detail, response.headers.get('retry-after'), withCode));
      (codeAsked || withCode ? $('code') : $('password')).focus();
    } catch (e) {
      showError(UNREACHABLE);
    } finally {
      button.disabled = false;
    }
  });

  $('sign-out').addEventListener('click', async function () {
    var reason = null;
    try {
      var response = await send('/auth/sign-out', 'POST');
      // 401: the session had already ended, which is what was asked.
      if (!response.ok && response.status !== 401) reason = 'Signing out failed (HTTP ' + response.status + '): this browser may still be signed in. Reload and sign out again.';
    } catch (e) {
      reason = 'Signing out did not reach the server: this browser may still be signed in. Reload and sign out again.';
    }
    storage.clear();
    person = null;
    showSignIn(reason);
  });

  start();
})();
`;
