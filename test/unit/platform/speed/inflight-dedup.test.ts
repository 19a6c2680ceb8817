import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { parse } from 'graphql';
import pino from 'pino';
import { canonicalJson, dedupKey, DeduplicatingDataSource } from '../../../../platform/speed/inflight-dedup';
import { loadConfig } from '../../../../gateway/config';
import type { RequestContext } from '../../../../schema/request-context';

/**
 * The dedup module's rules, on a data source whose answers the test releases by hand so that
 * "in flight at once" is certain. test/gateway/inflight-dedup.test.ts checks the same against
 * real subgraphs through Apollo Gateway, in both run modes.
 */

const TENANT_A = '00000000-0000-4000-8000-00000000000a';
const TENANT_B = '00000000-0000-4000-8000-00000000000b';
const FETCH = '{tenant{__typename id name}}';

/** A data source that records what reached it and answers when the test says so. */
class HeldSource implements GraphQLDataSource<RequestContext> {
  readonly calls: Array<{ requestId: string; tenantId: string | null; variables: unknown; signal?: AbortSignal; release(response: GatewayGraphQLResponse): void; fail(error: Error): void }> = [];
  process(options: GraphQLDataSourceProcessOptions<RequestContext>): Promise<GatewayGraphQLResponse> {
    const ctx = options.context as RequestContext;
    return new Promise((resolve, reject) =>
      this.calls.push({ requestId: ctx.requestId, tenantId: ctx.tenantId, variables: options.request.variables, signal: ctx.signal, release: resolve, fail: reject }),
    );
  }
}

let sequence = 0;
/** The options Apollo Gateway's executeFetch passes for one fetch of one request. */
function fetchOf(
  opts: { tenantId?: string | null; keyId?: string | null; kind?: 'query' | 'mutation'; fetch?: string; variables?: Record<string, unknown>; requestId?: string; signal?: AbortSignal } = {},
): GraphQLDataSourceProcessOptions<RequestContext> {
  const fetch = opts.fetch ?? FETCH;
  const context: RequestContext = {
    requestId: opts.requestId ?? `req-${++sequence}`,
    tenantId: opts.tenantId === undefined ? TENANT_A : opts.tenantId,
    keyId: opts.keyId === undefined ? 'key-1' : opts.keyId,
    log: pino({ level: 'silent' }),
    signal: opts.signal,
  };
  return {
    kind: 'incoming operation',
    request: { query: fetch, variables: opts.variables ?? {} },
    context,
    document: parse(fetch),
    incomingRequestContext: { operation: { operation: opts.kind ?? 'query' } },
  } as unknown as GraphQLDataSourceProcessOptions<RequestContext>;
}

/** Lets pending promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('in-flight deduplication of subgraph fetches', () => {
  it('sends identical concurrent query fetches of one tenant and key once; every caller gets the answer', async () => {
    const inner = new HeldSource();
    const dedup = new DeduplicatingDataSource(inner, 'tenant', pino({ level: 'silent' }));
    const answers = Promise.all([1, 2, 3].map(() => dedup.process(fetchOf())));
    await settle();
    expect(inner.calls).toHaveLength(1);
    inner.calls[0].release({ data: { tenant: { __typename: 'Tenant', id: 't', name: 'A' } } });
    expect(await answers).toEqual([1, 2, 3].map(() => ({ data: { tenant: { __typename: 'Tenant', id: 't', name: 'A' } } })));
  });

  it('gives every caller its own copy: one caller merging into its answer changes no other', async () => {
    const inner = new HeldSource();
    const dedup = new DeduplicatingDataSource(inner, 'billing', pino({ level: 'silent' }));
    const answers = Promise.all([1, 2, 3].map(() => dedup.process(fetchOf())));
    await settle();
    const original = { data: { accounts: [{ id: 'm1', locations: [{ id: 'l1' }] }] }, errors: [{ message: 'x', extensions: { code: 'NOT_FOUND' } }] };
    inner.calls[0].release(original);
    const [first, second, third] = await answers;
    // What Apollo Gateway's deepMerge and applyRewrites do to a response in place.
    (first.data!.accounts as Array<Record<string, unknown>>)[0].name = 'merged by the first caller';
    (first.errors as Array<{ message: string }>)[0].message = 'rewritten';
    expect(second).toEqual({ data: { accounts: [{ id: 'm1', locations: [{ id: 'l1' }] }] }, errors: [{ message: 'x', extensions: { code: 'NOT_FOUND' } }] });
    expect(third).toEqual(second);
    expect(second.data).not.toBe(third.data);
  });

  it('never shares across tenants or API keys, nor for fetches without a tenant', async () => {
    const inner = new HeldSource();
    const dedup = new DeduplicatingDataSource(inner, 'tenant', pino({ level: 'silent' }));
    const answers = Promise.all([
      dedup.process(fetchOf({ tenantId: TENANT_A })),
      dedup.process(fetchOf({ tenantId: TENANT_B })),
      dedup.process(fetchOf({ tenantId: TENANT_A, keyId: 'key-2' })),
      dedup.process(fetchOf({ tenantId: null })),
      dedup.process(fetchOf({ tenantId: null })),
    ]);
    await settle();
    expect(inner.calls.map((call) => call.tenantId)).toEqual([TENANT_A, TENANT_B, TENANT_A, null, null]);
    inner.calls.forEach((call, i) => call.release({ data: { n: i } }));
    expect((await answers).map((answer) => answer.data)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
  });

  it('never shares a mutation, nor any fetch of an operation that is not a query', async () => {
    const inner = new HeldSource();
    const dedup = new DeduplicatingDataSource(inner, 'analytics', pino({ level: 'silent' }));
    const create = 'mutation{createDashboard(input:{name:"x"}){id}}';
    void dedup.process(fetchOf({ kind: 'mutation', fetch: create }));
    void dedup.process(fetchOf({ kind: 'mutation', fetch: create }));
    // The entity fetch that follows a mutation's root fetch is a query document inside a mutation.
    void dedup.process(fetchOf({ kind: 'mutation' }));
    void dedup.process(fetchOf({ kind: 'mutation' }));
    await settle();
    expect(inner.calls).toHaveLength(4);
    expect(dedupKey(fetchOf({ kind: 'query', fetch: create }))).toBeNull();
  });

  it('shares only identical variables, whatever the order of their keys', async () => {
    const inner = new HeldSource();
    const dedup = new DeduplicatingDataSource(inner, 'tenant', pino({ level: 'silent' }));
    const query = 'query($a:Int,$b:Int){x(a:$a,b:$b)}';
    void dedup.process(fetchOf({ fetch: query, variables: { a: 1, b: 2 } }));
    void dedup.process(fetchOf({ fetch: query, variables: { b: 2, a: 1 } }));
    void dedup.process(fetchOf({ fetch: query, variables: { a: 1, b: 3 } }));
    await settle();
    expect(inner.calls.map((call) => call.variables)).toEqual([{ a: 1, b: 2 }, { a: 1, b: 3 }]);
    expect(canonicalJson({ b: [{ y: 1, x: null }], a: 'é' })).toBe('{"a":"é","b":[{"x":null,"y":1}]}');
  });

  it('hands a failure to every waiting caller and names their request ids in one log line', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const inner = new HeldSource();
    const dedup = new DeduplicatingDataSource(inner, 'notes', log);
    const outcomes = Promise.allSettled(['r1', 'r2', 'r3'].map((requestId) => dedup.process(fetchOf({ requestId }))));
    await settle();
    const failure = new Error('connect ECONNREFUSED');
    inner.calls[0].fail(failure);
    expect(await outcomes).toEqual([1, 2, 3].map(() => ({ status: 'rejected', reason: failure })));
    expect(lines).toEqual([expect.objectContaining({ subgraph: 'notes', requestId: 'r1', sharedWith: ['r2', 'r3'] })]);

    // An unexpected error in an answer is logged the same way; a domain error (NOT_FOUND) is the caller's answer, not a failure.
    const answers = Promise.all(['r4', 'r5'].map((requestId) => dedup.process(fetchOf({ requestId }))));
    await settle();
    inner.calls[1].release({ data: null, errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
    expect((await answers).map((answer) => answer.errors?.[0]?.extensions?.code)).toEqual(['INTERNAL_SERVER_ERROR', 'INTERNAL_SERVER_ERROR']);
    const found = Promise.all(['r6', 'r7'].map((requestId) => dedup.process(fetchOf({ requestId }))));
    await settle();
    inner.calls[2].release({ data: null, errors: [{ message: 'Not found', extensions: { code: 'NOT_FOUND' } }] });
    await found;
    expect(lines.map((line) => line.sharedWith)).toEqual([['r2', 'r3'], ['r5']]);
  });

  it('abandons a shared fetch only once every request waiting for it has gone; one that leaves early still gets no error of the others', async () => {
    const inner = new HeldSource();
    const dedup = new DeduplicatingDataSource(inner, 'analytics', pino({ level: 'silent' }));
    const [leader, follower] = [new AbortController(), new AbortController()];
    const answers = Promise.allSettled([dedup.process(fetchOf({ requestId: 'l', signal: leader.signal })), dedup.process(fetchOf({ requestId: 'f', signal: follower.signal }))]);
    await settle();
    expect(inner.calls).toHaveLength(1);
    // The fetch carries a signal of its own, not the leader's, and keeps the leader's identity.
    const shared = inner.calls[0].signal!;
    expect(inner.calls[0]).toMatchObject({ requestId: 'l', tenantId: TENANT_A });
    expect(shared).not.toBe(leader.signal);
    leader.abort(new Error('leader gone'));
    expect(shared.aborted).toBe(false);
    follower.abort(new Error('follower gone'));
    expect(shared.aborted).toBe(true);
    expect(shared.reason).toEqual(new Error('follower gone'));
    inner.calls[0].fail(shared.reason);
    expect((await answers).map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);

    // A follower that stays keeps the fetch going after the leader has gone, and both get the answer.
    const stays = new AbortController();
    const kept = Promise.all([dedup.process(fetchOf({ requestId: 'l2', signal: stays.signal })), dedup.process(fetchOf({ requestId: 'f2' }))]);
    await settle();
    stays.abort(new Error('gone'));
    expect(inner.calls[1].signal!.aborted).toBe(false);
    inner.calls[1].release({ data: { n: 1 } });
    expect(await kept).toEqual([{ data: { n: 1 } }, { data: { n: 1 } }]);
  });

  it('keeps nothing once a fetch settles: a later identical fetch goes to the subgraph again', async () => {
    const inner = new HeldSource();
    const dedup = new DeduplicatingDataSource(inner, 'tenant', pino({ level: 'silent' }));
    const first = dedup.process(fetchOf());
    await settle();
    inner.calls[0].release({ data: { n: 1 } });
    await first;
    const second = dedup.process(fetchOf());
    await settle();
    expect(inner.calls).toHaveLength(2);
    inner.calls[1].release({ data: { n: 2 } });
    expect((await second).data).toEqual({ n: 2 });
  });

  it('is on by default and SPEED_PLUMBING=-inflight-dedup turns it off; the old GRAPHQL_DEDUP stops the start', () => {
    expect(loadConfig({}).graphqlDedup).toBe(true);
    expect(loadConfig({ SPEED_PLUMBING: '-inflight-dedup' }).graphqlDedup).toBe(false);
    expect(() => loadConfig({ GRAPHQL_DEDUP: '0' })).toThrow(/GRAPHQL_DEDUP is gone: use SPEED_PLUMBING=-inflight-dedup/);
  });
});
