import { createHash } from 'node:crypto';

/** Bytes of documents one tenant may keep registered: its oldest go first past it. */
export const APQ_TENANT_BYTES = 1024 * 1024;
/** Bytes of documents all tenants together may keep: the least recently active tenant's oldest go first past it. */
export const APQ_TOTAL_BYTES = 32 * 1024 * 1024;

/** What the `persistedQuery` extension of a request resolves to: the document to run, or an answer that ends the request. */
export type PersistedResolution =
  | { kind: 'query'; query: string; hash: string; register: boolean }
  | { kind: 'answer'; status: number; headers: Record<string, string>; body: { errors: { message: string; extensions: { code: string } }[] } };

/** The answer Apollo Client's persisted-query link recognises (by code and message) and retries with the full document. */
const NOT_FOUND: PersistedResolution = {
  kind: 'answer',
  status: 200,
  headers: { 'Cache-Control': 'private, no-cache, must-revalidate' },
  body: { errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] },
};

const refusal = (message: string, code: string): PersistedResolution => ({ kind: 'answer', status: 400, headers: {}, body: { errors: [{ message, extensions: { code } }] } });

/** The SHA-256 of a document's text, in lower-case hex, as Apollo's automatic persisted queries name it. */
export function documentHash(query: string): string {
  return createHash('sha256').update(query).digest('hex');
}

/** Documents one tenant registered, oldest use first (a Map keeps insertion order; a use re-inserts). */
interface TenantDocuments {
  byHash: Map<string, string>;
  bytes: number;
}

/**
 * Automatic persisted queries (Apollo's APQ protocol, version 1) kept per tenant: a hash one tenant
 * registered is unknown to every other, so nobody can run, or learn of, another tenant's documents.
 * Memory is bounded twice: per tenant (APQ_TENANT_BYTES) and in all (APQ_TOTAL_BYTES), least
 * recently used first; a forgotten document costs its client one round trip (it resends the text).
 */
export class PersistedQueries {
  /** Tenants, least recently active first. */
  private readonly tenants = new Map<string, TenantDocuments>();
  private bytes = 0;

  constructor(
    private readonly tenantBytes = APQ_TENANT_BYTES,
    private readonly totalBytes = APQ_TOTAL_BYTES,
  ) {}

  /**
   * Resolves a request's `extensions.persistedQuery` for `tenantId`: a hash alone is looked up
   * (unknown: PERSISTED_QUERY_NOT_FOUND); a hash with its document is checked against it (another
   * document: 400 PERSISTED_QUERY_HASH_MISMATCH) and to be registered once the document parses.
   */
  resolve(tenantId: string, query: unknown, extension: unknown): PersistedResolution {
    if (!isRecord(extension)) return refusal('extensions.persistedQuery must be an object', 'BAD_REQUEST');
    if (extension.version !== 1) return refusal('Unsupported persisted query version', 'BAD_REQUEST');
    const hash = extension.sha256Hash;
    if (typeof hash !== 'string') return refusal('extensions.persistedQuery.sha256Hash must be a string', 'BAD_REQUEST');
    if (query === undefined || query === null) {
      const known = this.get(tenantId, hash);
      return known === undefined ? NOT_FOUND : { kind: 'query', query: known, hash, register: false };
    }
    if (typeof query !== 'string') return refusal('query must be a string', 'BAD_REQUEST');
    if (documentHash(query) !== hash) return refusal('provided sha does not match query', 'PERSISTED_QUERY_HASH_MISMATCH');
    return { kind: 'query', query, hash, register: true };
  }

  /** Keeps `query` under `hash` for `tenantId`, evicting the least recently used documents past the caps. */
  register(tenantId: string, hash: string, query: string): void {
    const size = sizeOf(hash, query);
    if (size > this.tenantBytes) return;
    const documents = this.touchTenant(tenantId);
    this.remove(documents, hash);
    documents.byHash.set(hash, query);
    documents.bytes += size;
    this.bytes += size;
    while (documents.bytes > this.tenantBytes) this.remove(documents, documents.byHash.keys().next().value!);
    for (const [tenant, held] of this.tenants) {
      if (this.bytes <= this.totalBytes) break;
      while (held.bytes > 0 && this.bytes > this.totalBytes) this.remove(held, held.byHash.keys().next().value!);
      if (held.byHash.size === 0) this.tenants.delete(tenant);
    }
  }

  /** Bytes held in all, for tests and metrics. */
  get size(): number {
    return this.bytes;
  }

  private get(tenantId: string, hash: string): string | undefined {
    const documents = this.tenants.get(tenantId);
    const query = documents?.byHash.get(hash);
    if (query === undefined || !documents) return undefined;
    this.touchTenant(tenantId);
    documents.byHash.delete(hash);
    documents.byHash.set(hash, query);
    return query;
  }

  /** The tenant's documents, made its most recently active. */
  private touchTenant(tenantId: string): TenantDocuments {
    const documents = this.tenants.get(tenantId) ?? { byHash: new Map(), bytes: 0 };
    this.tenants.delete(tenantId);
    this.tenants.set(tenantId, documents);
    return documents;
  }

  private remove(documents: TenantDocuments, hash: string): void {
    const query = documents.byHash.get(hash);
    if (query === undefined) return;
    documents.byHash.delete(hash);
    const size = sizeOf(hash, query);
    documents.bytes -= size;
    this.bytes -= size;
  }
}

/** A document's memory, counted as UTF-16 (two bytes a unit), with its key. */
function sizeOf(hash: string, query: string): number {
  return 2 * (hash.length + query.length) + 64;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
