import { documentHash, PersistedQueries } from '../../../gateway/graphql/persisted-queries';

const persisted = (query: string) => ({ version: 1, sha256Hash: documentHash(query) });
const doc = (i: number, pad = 0) => `{ t${i}: tenant { id } }${' '.repeat(pad)}`;

/** Registers `query` for `tenant` as the edge does after the hash matched. */
function register(store: PersistedQueries, tenant: string, query: string): void {
  const resolved = store.resolve(tenant, query, persisted(query));
  if (resolved.kind !== 'query' || !resolved.register) throw new Error('expected a registration');
  store.register(tenant, resolved.hash, resolved.query);
}

const lookup = (store: PersistedQueries, tenant: string, query: string) => store.resolve(tenant, undefined, persisted(query));

describe('persisted queries kept per tenant', () => {
  it("finds a tenant's own documents only", () => {
    const store = new PersistedQueries();
    register(store, 'a', doc(1));
    expect(lookup(store, 'a', doc(1))).toMatchObject({ kind: 'query', query: doc(1), register: false });
    expect(lookup(store, 'b', doc(1))).toMatchObject({ kind: 'answer', status: 200, body: { errors: [{ extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] } });
  });

  it('refuses a hash of another document, an unknown version and a malformed extension with a 400', () => {
    const store = new PersistedQueries();
    expect(store.resolve('a', doc(1), persisted(doc(2)))).toMatchObject({ kind: 'answer', status: 400, body: { errors: [{ extensions: { code: 'PERSISTED_QUERY_HASH_MISMATCH' } }] } });
    expect(store.resolve('a', doc(1), { version: 2, sha256Hash: documentHash(doc(1)) })).toMatchObject({ status: 400, body: { errors: [{ extensions: { code: 'BAD_REQUEST' } }] } });
    expect(store.resolve('a', doc(1), 'yes')).toMatchObject({ status: 400 });
    expect(store.resolve('a', doc(1), { version: 1 })).toMatchObject({ status: 400 });
    expect(store.size).toBe(0);
  });

  it("bounds each tenant's bytes and all tenants' bytes, least recently used first", () => {
    const store = new PersistedQueries(10_000, 25_000);
    // About 2.2 KB each (UTF-16): a tenant keeps four.
    for (let i = 0; i < 10; i += 1) register(store, 'a', doc(i, 1_000));
    expect(store.size).toBeLessThanOrEqual(10_000);
    expect(lookup(store, 'a', doc(0, 1_000)).kind).toBe('answer');
    expect(lookup(store, 'a', doc(9, 1_000)).kind).toBe('query');

    // Others fill the total: the least recently active tenant's documents go first.
    for (const tenant of ['b', 'c']) for (let i = 0; i < 4; i += 1) register(store, tenant, doc(i, 1_000));
    expect(store.size).toBeLessThanOrEqual(25_000);
    expect(lookup(store, 'c', doc(3, 1_000)).kind).toBe('query');
    expect(lookup(store, 'a', doc(6, 1_000)).kind).toBe('answer');

    // A document larger than a tenant's share is not kept; its client keeps sending the text.
    register(store, 'd', doc(0, 6_000));
    expect(lookup(store, 'd', doc(0, 6_000)).kind).toBe('answer');
  });
});
