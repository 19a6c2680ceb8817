/**
 * Abuse suite, the edge (issue 31, findings 1, 11, 12, 13): nothing is read before it is allowed,
 * every method on every path gets a JSON answer, public documents are prepared once and served
 * with validators under a per-address budget, and slow or many connections are cut. Each app is
 * started in this process with budgets small enough to spend (the end-to-end servers' are huge).
 */
import { get as httpGet } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createTestTenant, request, type HttpResult } from '../utils/e2e';
import { startFakeLlmServer, type FakeLlmServer } from '../utils/fake-llm-server';
import { createLegacyTemplate } from '../utils/notes';
import { startInProcessApp, type InProcessApp } from '../utils/in-process';
import { openSocket } from '../utils/raw-socket';

jest.setTimeout(60_000);

const OPERATOR = { authorization: `Bearer ${process.env.E2E_OPERATOR_TOKEN}` };
const JSON_TYPE = { 'content-type': 'application/json' };

/** A JSON object of `keys` keys, ~1 MiB at 90,000: what took 0.3-1.5 s to parse before any check. */
const manyKeys = (keys: number) => JSON.stringify(Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, i])));
/** Malformed JSON: parsed, it would be a 422 `json_invalid`; so a 401/404/413/429 proves it was never parsed. */
const malformed = (bytes: number) => `{"name": "x", "pad": "${'a'.repeat(bytes)}"`;

/** A GET with `Accept-Encoding` whose raw bytes are kept (fetch would inflate them behind our back). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

const expectJson = (res: HttpResult, status: number, detail: unknown) => {
  expect([res.status, res.headers.get('content-type'), res.body]).toEqual([status, 'application/json; charset=utf-8', { detail }]);
};

describe('nothing is read before it is allowed (finding 1)', () => {
  let app: InProcessApp;
  beforeAll(async () => {
    app = await startInProcessApp({ RATE_LIMIT_AUTH_FAILURES_PER_WINDOW: '4', PUBLIC_BODY_LIMIT_BYTES: '16384' });
  });
  afterAll(() => app?.close());

  it('/admin without a token: a 401 before the body (a 1 MiB object of 90,000 keys, or malformed JSON) is parsed; then a 429, still unparsed', async () => {
    const huge = await request(`${app.url}/admin/tenants`, { method: 'POST', headers: JSON_TYPE, body: manyKeys(90_000) });
    expectJson(huge, 401, 'Invalid operator token');
    const broken = await request(`${app.url}/admin/tenants`, { method: 'POST', headers: JSON_TYPE, body: malformed(100) });
    expectJson(broken, 401, 'Invalid operator token');
    // The address has spent its 4 failed attempts: the next is a 429, and still no 422.
    for (let i = 0; i < 2; i += 1) await request(`${app.url}/admin/tenants`, { method: 'POST', headers: { ...JSON_TYPE, authorization: 'Bearer wrong' }, body: '{}' });
    const limited = await request(`${app.url}/admin/tenants`, { method: 'POST', headers: JSON_TYPE, body: malformed(500_000) });
    expectJson(limited, 429, 'Rate limit exceeded');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The operator's own requests are read as before: a malformed body is its 422.
    const operator = await request(`${app.url}/admin/tenants`, { method: 'POST', headers: { ...JSON_TYPE, ...OPERATOR }, body: malformed(10) });
    expect([operator.status, operator.body.detail[0].type]).toEqual([422, 'json_invalid']);
  });
});

describe('a refusal does not wait for the rest of the body (finding 1)', () => {
  let app: InProcessApp;
  beforeAll(async () => {
    app = await startInProcessApp();
  });
  afterAll(() => app?.close());

  it('/admin without a token, 16 KiB of a declared 1 MiB sent: the 401 comes with Connection: close and the server closes the connection', async () => {
    const client = await openSocket(app.url);
    client.socket.write(`POST /admin/tenants HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${1024 * 1024}\r\n\r\n{"name": "${'a'.repeat(16 * 1024)}`);
    await client.closed;
    const [head, body] = client.received().split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 401 Unauthorized\r\n/);
    expect(head).toMatch(/\r\nConnection: close\r\n/i);
    expect(JSON.parse(body)).toEqual({ detail: 'Invalid operator token' });
  });
});

describe('the public lead route: the address budget, then the key, then a small body (finding 1)', () => {
  let app: InProcessApp;
  let key: string;
  beforeAll(async () => {
    app = await startInProcessApp({ RATE_LIMIT_AUTH_FAILURES_PER_WINDOW: '4', PUBLIC_BODY_LIMIT_BYTES: '16384' });
    const tenant = await createTestTenant('Edge Lead Clinic', app.url);
    const created = await tenant.graphql('mutation { createCampaign(input: { name: "Edge leads" }) { webhook { webhookKey } } }');
    key = created.body.data.createCampaign.webhook.webhookKey;
  });
  afterAll(() => app?.close());

  it("a body over PUBLIC_BODY_LIMIT_BYTES is a 413 before it is parsed; an unknown key's 404 comes before the size is looked at; past the budget, a 429 first", async () => {
    const lead = (path: string, body: string) => request(`${app.url}/opportunity/leads/${path}`, { method: 'POST', headers: JSON_TYPE, body });
    expectJson(await lead(key, manyKeys(90_000)), 413, 'Request body too large');
    expectJson(await lead(key, malformed(1_000_000)), 413, 'Request body too large');
    expectJson(await lead('no-such-key', malformed(1_000_000)), 404, 'Campaign not found');
    expect((await lead(key, JSON.stringify({ name: 'Jane', email: 'jane@example.com' }))).status).toBe(201);
    // The budget (4) is spent: the next is refused before its key and its body, however malformed or large.
    expectJson(await lead(key, malformed(1_000_000)), 429, 'Rate limit exceeded');
    expectJson(await lead('no-such-key', malformed(10)), 429, 'Rate limit exceeded');
  });
});

describe('edge answers, documents and connections (findings 11, 12, 13)', () => {
  let app: InProcessApp;
  beforeAll(async () => {
    app = await startInProcessApp({ PUBLIC_DOCUMENTS_PER_WINDOW: '1000', RATE_LIMIT_AUTH_FAILURES_PER_WINDOW: '1000' });
  });
  afterAll(() => app?.close());

  it.each([
    ['OPTIONS', '/graphql', 'GET, POST'],
    ['PUT', '/graphql', 'GET, POST'],
    ['PUT', '/graphql/stream', 'GET, POST'],
    ['OPTIONS', '/graphql/stream', 'GET, POST'],
    ['OPTIONS', '/console', 'GET, HEAD'],
    ['POST', '/console/js/main.js', 'GET, HEAD'],
    ['OPTIONS', '/docs', 'GET, HEAD'],
    ['DELETE', '/docs/assets/swagger-ui.css', 'GET, HEAD'],
    ['OPTIONS', '/assets/x', 'GET, HEAD'],
    ['POST', '/openapi.json', 'GET, HEAD'],
    ['OPTIONS', '/healthz', 'GET, HEAD'],
    ['PATCH', '/graphiql/init.js', 'GET, HEAD'],
  ])('%s %s is a JSON 405 with Allow: %s (finding 11)', async (method, path, allow) => {
    const res = await request(`${app.url}${path}`, { method });
    // GraphQL's paths answer in GraphQL's form, as Apollo Server's own 405 does (docs/api.md, Errors).
    if (path.startsWith('/graphql')) {
      expect([res.status, res.headers.get('content-type'), res.body]).toEqual([405, 'application/json; charset=utf-8', { errors: [{ message: 'Method Not Allowed', extensions: { code: 'BAD_REQUEST' } }] }]);
    } else expectJson(res, 405, 'Method Not Allowed');
    expect(res.headers.get('allow')).toBe(allow);
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
  });

  it('a contract path keeps the JSON 404 for a method it does not list; an unknown path is a JSON 404 for every method', async () => {
    for (const method of ['OPTIONS', 'PATCH', 'POST']) expectJson(await request(`${app.url}/tenant/public`, { method }), 404, 'Not Found');
    for (const method of ['GET', 'OPTIONS', 'PUT', 'DELETE']) expectJson(await request(`${app.url}/no/such/path`, { method }), 404, 'Not Found');
  });

  it("/admin's paths answer 405 with their methods, only to the operator (a stranger's is a 401)", async () => {
    expectJson(await request(`${app.url}/admin/tenants`, { method: 'OPTIONS' }), 401, 'Invalid operator token');
    const wrong = await request(`${app.url}/admin/tenants`, { method: 'PUT', headers: OPERATOR });
    expectJson(wrong, 405, 'Method Not Allowed');
    expect(wrong.headers.get('allow')).toBe('POST');
    const keys = await request(`${app.url}/admin/api-keys/x`, { method: 'GET', headers: OPERATOR });
    expect([keys.status, keys.headers.get('allow')]).toEqual([405, 'DELETE']);
  });

  it('/openapi.json: one strong ETag, a 304 for it, gzip and brotli bodies that decode to the same JSON (finding 12)', async () => {
    const plain = await rawGet(`${app.url}/openapi.json`, {});
    expect(plain.status).toBe(200);
    const document = JSON.parse(plain.body.toString('utf8'));
    expect(document.openapi).toMatch(/^3\./);
    const etag = plain.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);

    const again = await request(`${app.url}/openapi.json`, { headers: { 'if-none-match': etag, 'accept-encoding': 'identity' } });
    expect([again.status, again.text]).toEqual([304, '']);

    const gz = await rawGet(`${app.url}/openapi.json`, { 'accept-encoding': 'gzip' });
    expect([gz.status, gz.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect(gz.body.length).toBeLessThan(plain.body.length / 4);
    expect(JSON.parse(gunzipSync(gz.body).toString('utf8'))).toEqual(document);
    expect(gz.headers.etag).not.toBe(etag);

    // A browser lists gzip first; brotli, the smaller, is chosen all the same.
    const br = await rawGet(`${app.url}/openapi.json`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual(document);
    expect((await rawGet(`${app.url}/openapi.json`, { 'accept-encoding': 'br', 'if-none-match': br.headers.etag as string })).status).toBe(304);
  });

  it.each(['/docs', '/docs/init.js', '/docs/assets/swagger-ui-bundle.js', '/graphiql/init.js', '/graphiql/assets/graphiql.min.js', '/console', '/console/js/main.js', '/console/vendor/echarts.js'])(
    '%s is served with a validator and answers 304 to it',
    async (path) => {
      const first = await rawGet(`${app.url}${path}`, { 'accept-encoding': 'gzip' });
      expect([first.status, first.headers['content-encoding']]).toEqual([200, 'gzip']);
      expect(gunzipSync(first.body).length).toBeGreaterThan(first.body.length);
      expect(first.headers['cache-control']).toMatch(/^(no-cache|public, max-age=31536000, immutable)$/);
      const second = await rawGet(`${app.url}${path}`, { 'accept-encoding': 'gzip', 'if-none-match': first.headers.etag as string });
      expect([second.status, second.body.length]).toEqual([304, 0]);
    },
  );

  it("GraphiQL's page is the page for a browser, with a validator; an API client's GET /graphql is the API's", async () => {
    const page = await rawGet(`${app.url}/graphql`, { accept: 'text/html' });
    expect([page.status, page.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    expect(page.headers.vary).toMatch(/Accept\b.*Accept-Encoding|Accept-Encoding.*Accept\b/);
    expect((await rawGet(`${app.url}/graphql`, { accept: 'text/html', 'if-none-match': page.headers.etag as string })).status).toBe(304);
    expect((await request(`${app.url}/graphql?query=%7B__typename%7D`, { headers: { accept: 'application/json' } })).status).toBe(422);
  });
});

describe('the public documents budget (finding 12)', () => {
  let app: InProcessApp;
  beforeAll(async () => {
    app = await startInProcessApp({ PUBLIC_DOCUMENTS_PER_WINDOW: '3' });
  });
  afterAll(() => app?.close());

  it('counts each public document against the address; past the budget a 429 with Retry-After, before anything is served', async () => {
    const paths = ['/openapi.json', '/docs', '/console/js/main.js'];
    for (const path of paths) {
      const res = await request(`${app.url}${path}`);
      expect([path, res.status, res.headers.get('ratelimit-policy')]).toEqual([path, 200, '"public";q=3;w=60']);
    }
    for (const path of [...paths, '/graphiql/assets/graphiql.min.js']) {
      const res = await request(`${app.url}${path}`);
      expectJson(res, 429, 'Rate limit exceeded');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // A health probe is not a public document: it still answers.
    expect((await request(`${app.url}/healthz`)).status).toBe(200);
  });
});

describe('slow and many connections (finding 13)', () => {
  let app: InProcessApp;
  beforeAll(async () => {
    app = await startInProcessApp({ HTTP_HEADERS_TIMEOUT_SECONDS: '1', MAX_CONNECTIONS_PER_ADDRESS: '3' });
  });
  afterAll(() => app?.close());

  it('headers trickled past HTTP_HEADERS_TIMEOUT_SECONDS are cut with a JSON 408', async () => {
    const slow = await openSocket(app.url);
    slow.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
    const drip = setInterval(() => slow.socket.writable && slow.socket.write('X-Drip: 1\r\n'), 200);
    await slow.closed;
    clearInterval(drip);
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n[\s\S]*\r\n\r\n\{"detail":"Request timeout"\}$/);
  });

  it('keeps an idle connection 65 s (HTTP_KEEP_ALIVE_SECONDS), longer than a load balancer keeps its own, and says so', async () => {
    const res = await rawGet(`${app.url}/healthz`, {});
    expect([res.status, res.headers.connection, res.headers['keep-alive']]).toEqual([200, 'keep-alive', 'timeout=65']);
  });

  it('a fourth connection from one address is closed unread while three are open; once one closes, a new one is served', async () => {
    const held = await Promise.all([1, 2, 3].map(() => openSocket(app.url)));
    const fourth = await openSocket(app.url);
    await fourth.closed;
    expect(fourth.received()).toBe('');
    held[0].socket.destroy();
    await held[0].closed;
    // The server counts the close on its own side a moment later; ask until a connection is served.
    let served = '';
    for (let attempt = 0; attempt < 20 && !served; attempt += 1) {
      const next = await openSocket(app.url);
      next.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      await next.closed;
      served = next.received();
    }
    expect(served).toMatch(/^HTTP\/1\.1 200 OK/);
    for (const { socket } of held) socket.destroy();
  });
});

describe('an event stream outlives HTTP_REQUEST_TIMEOUT_SECONDS (finding 13)', () => {
  let app: InProcessApp;
  let llm: FakeLlmServer;
  beforeAll(async () => {
    // A model that sends one chunk and then nothing keeps the migration stream open; pings every 200 ms show it alive.
    llm = await startFakeLlmServer();
    llm.mode = 'slow';
    app = await startInProcessApp({ HTTP_HEADERS_TIMEOUT_SECONDS: '1', HTTP_REQUEST_TIMEOUT_SECONDS: '1', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake' }, { streamHeartbeatMs: 200 });
  });
  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  it('the request timeout ends when the request has arrived: a stream answered for three times as long keeps its connection', async () => {
    const tenant = await createTestTenant('Edge Stream Clinic', app.url);
    const template = await createLegacyTemplate(tenant);
    const controller = new AbortController();
    const res = await fetch(`${app.url}/notes/templates/${template.templateId}/questions/${template.legacyQuestionId}/migrate`, { method: 'POST', headers: tenant.headers, signal: controller.signal });
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/event-stream; charset=utf-8']);
    const reader = res.body!.getReader();
    let text = '';
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return 'ended';
        text += Buffer.from(value).toString('utf8');
      }
    })().catch((error: Error) => (error.name === 'AbortError' ? 'aborted by the test' : `failed: ${error.message}`));
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    controller.abort();
    // Still open until the test let go, with pings sent well past the one-second request timeout.
    expect(await reading).toBe('aborted by the test');
    expect(text.split(': ping').length - 1).toBeGreaterThanOrEqual(5);
  });
});
