import { apolloGatewayContextModule, installGatewayRequestContext, makeGatewayRequestContext } from '../../../gateway/graphql/gateway-request-context';

/** A request context as Apollo Server's requestPipeline hands it to makeGatewayGraphQLRequestContext. */
function apolloContext() {
  const requestHeaders = new Map([['x-a', '1']]);
  const responseHeaders = new Map<string, string>();
  return {
    request: { query: '{ __typename }', operationName: 'Op', variables: { v: 1 }, extensions: { e: 1 }, http: { method: 'POST', search: 'a=1', headers: requestHeaders } },
    response: { http: { headers: responseHeaders, status: undefined as number | undefined } },
    schema: {},
    contextValue: { requestId: 'r' },
    queryHash: 'h',
    document: {},
    source: '{ __typename }',
    operationName: 'Op',
    operation: {},
    errors: undefined,
    metrics: { m: 1 },
    overallCachePolicy: { p: 1 },
    requestIsBatched: false,
  };
}
const server = { logger: { l: 1 }, cache: { c: 1 } };
const internals = { includeStacktraceInErrorResponses: false };

describe('makeGatewayRequestContext (Apollo Server gateway context without a per-request accessor pair)', () => {
  const original = apolloGatewayContextModule().makeGatewayGraphQLRequestContext;

  it('gives what Apollo Server 5 gives: same fields, headers views, status read and written through', () => {
    const a = apolloContext();
    const b = apolloContext();
    const ours = makeGatewayRequestContext(a, server, internals);
    const theirs = original(b, server, internals) as ReturnType<typeof makeGatewayRequestContext>;
    const plain = (rc: ReturnType<typeof makeGatewayRequestContext>) => ({ ...rc, request: { ...rc.request, http: { ...rc.request.http, headers: [...rc.request.http.headers] } }, response: { http: { status: rc.response.http.status, headers: [...rc.response.http.headers] } } });
    expect(plain(ours)).toEqual(plain(theirs));
    for (const [rc, source] of [[ours, a], [theirs, b]] as const) {
      rc.response.http.status = 418;
      rc.response.http.headers.set('x-b', '2');
      rc.response.http.headers.append('x-b', '3');
      expect(source.response.http.status).toBe(418);
      expect(rc.response.http.status).toBe(418);
      expect(source.response.http.headers.get('x-b')).toBe('2, 3');
      expect(rc.request.http.headers.get('x-a')).toBe('1');
      expect(rc.request.http.headers.get('missing')).toBeNull();
      expect(rc.request.http.url).toBe('https://unknown-url.invalid/?a=1');
    }
  });

  it('leaves out the request fields Apollo Server leaves out', () => {
    const rc = apolloContext();
    const { request } = makeGatewayRequestContext({ ...rc, request: { query: 'q' } }, server, internals);
    expect(request).toEqual({ query: 'q' });
  });

  it('is installed in place of Apollo Server 5.x function, once', () => {
    expect(installGatewayRequestContext()).toBe(true);
    expect(apolloGatewayContextModule().makeGatewayGraphQLRequestContext).toBe(makeGatewayRequestContext);
    expect(installGatewayRequestContext()).toBe(true);
  });
});
