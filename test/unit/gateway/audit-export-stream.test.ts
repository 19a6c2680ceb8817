import { get, type ClientRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { servedSchema } from '../../../gateway/access/access-doc';
import { ScopeCheck } from '../../../gateway/access/scope-check';
import { auditExportRouter } from '../../../gateway/audit/audit-export.router';
import { contextOf, requestContextMiddleware } from '../../../gateway/http/request-context';
import { errorHandler } from '../../../rest-bridge/http-errors';
import { FULL_ACCESS } from '../../../schema/scopes';
import type { AuditEventRecord, TenantAccess } from '../../../subgraphs/tenant';
import { eventually } from '../../utils/eventually';

const TENANT = '44444444-4444-4444-8444-444444444444';
/** About 1 MB of NDJSON per page: a few pages fill the socket's buffers. */
const PAGE = Array.from({ length: 100 }, (_, i): AuditEventRecord => ({
  id: `id-${i}`,
  seq: i + 1,
  occurredAt: new Date(0),
  actor: { kind: 'key', id: 'k' },
  action: 'patient.read',
  resourceType: 'patient',
  resourceIds: ['x'.repeat(10_000)],
  outcome: 'success',
  requestId: null,
  clientAddress: null,
}));

/**
 * The export's streaming (gateway/audit/audit-export.router.ts), without a database: a trail
 * that never ends is read only as fast as the client takes it (backpressure), and the walk is
 * ended as soon as the client goes away.
 */
describe('the audit export stream', () => {
  let server: Server;
  let pagesRead = 0;
  let lastReadAt = 0;
  let walkEnded = false;

  /** The tenant subgraph's face, with an endless trail that counts the pages asked of it. */
  const tenants = {
    async exportAuditEvents() {
      return (async function* endless() {
        try {
          for (;;) {
            pagesRead++;
            lastReadAt = Date.now();
            yield PAGE;
          }
        } finally {
          walkEnded = true;
        }
      })();
    },
  } as unknown as TenantAccess;

  beforeAll(async () => {
    const app = express();
    app.use(requestContextMiddleware(pino({ level: 'silent' })));
    const authenticate: express.RequestHandler = (_req, res, next) => {
      Object.assign(contextOf(res), { tenantId: TENANT, keyId: 'k', scopes: FULL_ACCESS, actor: { kind: 'key', id: 'k' } });
      next();
    };
    app.use(auditExportRouter(tenants, new ScopeCheck(), authenticate, servedSchema()));
    app.use(errorHandler(() => undefined, contextOf));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('reads the next page only when the client takes the last, and stops when it leaves', async () => {
    const { port } = server.address() as AddressInfo;
    let request!: ClientRequest;
    const response = await new Promise<IncomingMessage>((resolve) => {
      request = get(`http://127.0.0.1:${port}/audit/events/export`, resolve);
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    let received = 0;
    response.on('data', (chunk: Buffer) => (received += chunk.length));
    await eventually(() => received > 0, { what: 'a first chunk' });
    response.pause();

    // While the client reads nothing the walk comes to rest, a few pages ahead at most (an endless trail would otherwise be read on).
    await eventually(() => Date.now() - lastReadAt > 300, { what: 'the walk at rest while the client reads nothing', timeoutMs: 10_000 });
    const atRest = pagesRead;
    expect(atRest).toBeLessThan(64);

    response.resume();
    await eventually(() => pagesRead > atRest + 10, { what: 'the walk going on once the client reads' });

    expect(walkEnded).toBe(false);
    request.destroy();
    await eventually(() => walkEnded, { what: 'the walk ended after the client left' });
  });
});
