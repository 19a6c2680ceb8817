import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import pino from 'pino';
import { ServiceUnavailableError } from '../../../schema/errors';
import type { RequestIdentity, SubgraphContext } from '../../../platform/context';
import { serveSubgraph } from '../../../platform/serve-subgraph';
import type { RunningSubgraph } from '../../../platform/subgraph-runtime';

const SECRET = 'subgraph-errors-secret-0123456789';

// The failures under test are the server's error path, so the schema's fields fail on purpose.
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      outage: {
        type: GraphQLString,
        resolve: () => {
          throw new ServiceUnavailableError('Payment processor unavailable; retry the request', 10, { cause: new Error('connect ECONNREFUSED 10.0.0.9:443') });
        },
      },
      bug: {
        type: GraphQLString,
        resolve: () => {
          throw new TypeError("Cannot read properties of undefined (reading 'patientSecret')");
        },
      },
    },
  }),
});

/**
 * A subgraph served alone (distributed mode), on a real HTTP server: a failure's cause is never
 * sent to the gateway, and its log line carries the request id the gateway forwarded, so the
 * operator can find it from the client's X-Request-Id.
 */
describe('a subgraph served alone reports failures with the request id', () => {
  const lines: Array<Record<string, any>> = [];
  const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(JSON.parse(String(chunk))), done()) });
  let service: Awaited<ReturnType<typeof serveSubgraph>>;
  let url: string;

  beforeAll(async () => {
    const subgraph = {
      name: 'billing',
      schema,
      context: (identity: RequestIdentity) => ({ ...identity }) as unknown as SubgraphContext,
      seedDemo: async () => undefined,
    } as unknown as RunningSubgraph;
    service = await serveSubgraph(subgraph, { port: 0, host: '127.0.0.1', secret: SECRET, log: pino(sink) });
    url = `http://127.0.0.1:${(service.server.address() as AddressInfo).port}`;
  });
  afterAll(() => service.close());
  beforeEach(() => void (lines.length = 0));

  const query = async (field: string, requestId: string) => {
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-secret': SECRET, 'x-request-id': requestId },
      body: JSON.stringify({ query: `{ ${field} }` }),
    });
    return (await res.json()) as { errors: Array<{ message: string; extensions: Record<string, unknown> }> };
  };

  it("answers an outage with its code and Retry-After seconds, and logs the outside service's failure", async () => {
    const body = await query('outage', 'req-outage-1');
    expect(body.errors.map(({ message, extensions }) => ({ message, extensions }))).toEqual([
      { message: 'Payment processor unavailable; retry the request', extensions: { code: 'SERVICE_UNAVAILABLE', retryAfter: 10 } },
    ]);
    expect(lines.map((line) => [line.msg, line.requestId, line.err?.message])).toEqual([['resolver failed', 'req-outage-1', 'connect ECONNREFUSED 10.0.0.9:443']]);
  });

  it('answers a bug with a bare 500 and keeps its message in the log', async () => {
    const body = await query('bug', 'req-bug-1');
    expect(body.errors.map(({ message, extensions }) => ({ message, extensions }))).toEqual([{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }]);
    expect(JSON.stringify(body)).not.toContain('patientSecret');
    expect(lines.map((line) => [line.msg, line.requestId, line.err?.type])).toEqual([['resolver failed', 'req-bug-1', 'TypeError']]);
  });
});
