import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { trace } from '@opentelemetry/api';
import { Kind, type DocumentNode } from 'graphql';
import type { Logger } from 'pino';
import type { RequestContext } from '../../schema/request-context';
import { liveList, type LiveList } from './slot-list';

/** Fetches whose key (document and variables) is longer are sent as they are: holding a big key buys little. */
const MAX_KEY_CHARS = 64 * 1024;

/** Span attribute on the gateway's fetch span of a request that got another request's answer. */
export const SHARED_FETCH_ATTRIBUTE = 'hpp.fetch.shared_with_request';

/** The options of a fetch that serves a client's operation (not a health check or schema load). */
type IncomingFetch = Extract<GraphQLDataSourceProcessOptions<RequestContext>, { incomingRequestContext: unknown }>;

/** Apollo's GraphQLDataSourceRequestKind.INCOMING_OPERATION; the enum is not exported from the package's entry point. */
const isIncoming = (options: GraphQLDataSourceProcessOptions<RequestContext>): options is IncomingFetch => (options.kind as string) === 'incoming operation';

/** A fetch on its way to the subgraph, and the requests waiting for its answer besides the one that sent it. */
interface InFlight {
  leaderRequestId: string;
  followers: Array<{ requestId: string; resolve(response: GatewayGraphQLResponse): void; reject(error: unknown): void }>;
  /** The fetch's own signal, aborted once every request waiting for it has gone; null when the leader has none. */
  presence: SharedPresence | null;
}

/**
 * Whether anyone still waits for a shared fetch: the fetch carries a signal of its own that aborts
 * only once every request that joined it (the leader and each follower) has aborted, so one
 * client's leaving never cuts the answer the others wait for.
 */
class SharedPresence {
  readonly controller = new AbortController();
  private present = 0;
  private readonly detach: Array<() => void> = [];

  /** Counts a request in; one without a signal (no client waits on it) stays to the end. */
  join(signal: AbortSignal | undefined): void {
    this.present++;
    if (!signal) return;
    if (signal.aborted) return this.leave(signal.reason);
    const onAbort = () => this.leave(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    this.detach.push(() => signal.removeEventListener('abort', onAbort));
  }

  /** Stops listening to the requests' signals once the fetch has settled. */
  close(): void {
    for (const detach of this.detach) detach();
  }

  private leave(reason: unknown): void {
    if (--this.present === 0) this.controller.abort(reason);
  }
}

/** The leader's context with the shared fetch's signal in place of its own. */
class SharedFetchContext implements RequestContext {
  constructor(
    private readonly leader: RequestContext,
    readonly signal: AbortSignal,
  ) {}

  get requestId(): string {
    return this.leader.requestId;
  }

  get tenantId(): string | null {
    return this.leader.tenantId;
  }

  get keyId(): string | null {
    return this.leader.keyId;
  }

  get scopes(): RequestContext['scopes'] {
    return this.leader.scopes;
  }

  get actor(): RequestContext['actor'] {
    return this.leader.actor;
  }

  get clientAddress(): string | undefined {
    return this.leader.clientAddress;
  }

  get log(): RequestContext['log'] {
    return this.leader.log;
  }
}

/**
 * Wraps a subgraph data source so that identical query fetches in flight at the same moment reach
 * the subgraph once: a later caller awaits the first one's answer, errors included, and gets its
 * own copy, because Apollo Gateway rewrites and merges subgraph responses into its result in
 * place (executeQueryPlan's applyRewrites and deepMerge). Nothing is kept once a fetch settles:
 * this is not a cache. The key holds everything that can change an answer: the tenant and API key
 * (the subgraph scopes by tenant; the key is included so that no answer ever crosses keys), the
 * fetch's document and operation name, and its variables with object keys sorted. The request id
 * is not part of it; mutations, and every fetch of an operation that is not a query, never share.
 * A shared fetch is abandoned (its signal aborted) only once every request waiting for it has gone.
 */
export class DeduplicatingDataSource implements GraphQLDataSource<RequestContext> {
  /** Key to slot in `fetches`: the map holds small integers, so its hash-table copies keep no request alive (slot-list.ts). */
  private readonly inFlight = new Map<string, number>();
  private readonly fetches: LiveList<InFlight>;

  constructor(
    private readonly inner: GraphQLDataSource<RequestContext>,
    private readonly subgraph: string,
    private readonly log: Logger,
    slotList = true,
  ) {
    this.fetches = liveList(slotList);
  }

  async process(options: GraphQLDataSourceProcessOptions<RequestContext>): Promise<GatewayGraphQLResponse> {
    const key = dedupKey(options);
    if (key === null) return this.inner.process(options);
    const identity = options.context as Partial<RequestContext>;
    const requestId = identity.requestId ?? 'internal';
    const runningSlot = this.inFlight.get(key);
    const running = runningSlot === undefined ? undefined : this.fetches.get(runningSlot);
    if (running) {
      // The follower's own fetch span says whose answer it got: its trace has no subgraph span of its own.
      trace.getActiveSpan()?.setAttribute(SHARED_FETCH_ATTRIBUTE, running.leaderRequestId);
      running.presence?.join(identity.signal);
      return new Promise((resolve, reject) => running.followers.push({ requestId, resolve, reject }));
    }
    const presence = identity.signal ? new SharedPresence() : null;
    presence?.join(identity.signal);
    const entry: InFlight = { leaderRequestId: requestId, followers: [], presence };
    const slot = this.fetches.add(entry);
    this.inFlight.set(key, slot);
    let response: GatewayGraphQLResponse;
    try {
      // The fetch is everyone's now: it is abandoned only when the last request waiting for it has gone.
      response = await this.inner.process(presence ? { ...options, context: new SharedFetchContext(options.context as RequestContext, presence.controller.signal) } : options);
    } catch (error) {
      this.inFlight.delete(key);
      this.fetches.remove(slot);
      presence?.close();
      if (entry.followers.length > 0 && !presence?.controller.signal.aborted) this.reportShared(entry, 'threw');
      for (const follower of entry.followers) follower.reject(error);
      throw error;
    }
    this.inFlight.delete(key);
    this.fetches.remove(slot);
    presence?.close();
    if (entry.followers.length > 0) {
      if (response.errors?.some(isUnexpected)) this.reportShared(entry, 'answered an internal error');
      // Copies are made before the leader's caller resumes and merges the original into its result.
      for (const follower of entry.followers) follower.resolve(copyResponse(response));
    }
    return response;
  }

  /**
   * The subgraph logged an unexpected failure with the leader's request id only; this line ties
   * the other requests that received the same failure to it (docs/operations.md).
   */
  private reportShared(entry: InFlight, what: string): void {
    this.log.warn(
      { subgraph: this.subgraph, requestId: entry.leaderRequestId, sharedWith: entry.followers.map((f) => f.requestId) },
      `subgraph fetch ${what}; its answer also went to the requests that were waiting for the same fetch`,
    );
  }
}

/**
 * The key under which a fetch may share another's answer, or null when it must go alone: not an
 * operation of a client, not a query (or part of an operation that is not one), no tenant, or too big.
 */
export function dedupKey(options: GraphQLDataSourceProcessOptions<RequestContext>): string | null {
  if (!isIncoming(options)) return null;
  if (options.incomingRequestContext.operation?.operation !== 'query') return null;
  const { request } = options;
  const query = request.query;
  if (!query || !isQueryDocument(options.document, query)) return null;
  const identity = options.context as Partial<RequestContext>;
  if (!identity.tenantId) return null;
  const variables = request.variables ? canonicalJson(request.variables) : '';
  if (query.length + variables.length > MAX_KEY_CHARS) return null;
  // Separated by NUL, which none of the parts can hold unescaped (ids are UUIDs; JSON escapes it).
  return `${identity.tenantId}\0${identity.keyId ?? ''}\0${request.operationName ?? ''}\0${query}\0${variables}`;
}

/** Whether the fetch's document is a query (the planner's documents hold one operation). */
function isQueryDocument(document: DocumentNode | undefined, query: string): boolean {
  if (document) {
    const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    return operations.length === 1 && operations[0].operation === 'query';
  }
  return /^\s*(query\b|\{)/.test(query);
}

/** JSON with object keys in sorted order, so that `{a, b}` and `{b, a}` share; array order is kept (it is meaningful). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const parts: string[] = [];
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) parts.push(`${JSON.stringify(key)}:${canonicalJson(item)}`);
  }
  return `{${parts.join(',')}}`;
}

/** A response's own copy: data, errors and extensions copied deep; anything else (the HTTP response) shared. */
function copyResponse(response: GatewayGraphQLResponse): GatewayGraphQLResponse {
  const copy: GatewayGraphQLResponse = { ...response };
  if (response.data !== undefined) copy.data = copyJson(response.data) as GatewayGraphQLResponse['data'];
  if (response.errors !== undefined) copy.errors = copyJson(response.errors) as GatewayGraphQLResponse['errors'];
  if (response.extensions !== undefined) copy.extensions = copyJson(response.extensions) as GatewayGraphQLResponse['extensions'];
  return copy;
}

/** Deep copy of plain objects and arrays; other objects (a Date from a scalar) are leaves and shared, as nothing merges into them. */
function copyJson(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyJson);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  // graphql-js builds results on null prototypes; kept so, a `__proto__` alias stays a plain field.
  const copy: Record<string, unknown> = proto === null ? Object.create(null) : {};
  for (const key of Object.keys(value)) {
    const item = copyJson((value as Record<string, unknown>)[key]);
    if (key === '__proto__') Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy;
}

/** An error no client caused: the subgraph hid its cause and logged it under the leader's request id. */
function isUnexpected(error: { extensions?: Record<string, unknown> }): boolean {
  const code = error.extensions?.code;
  return code === undefined || code === 'INTERNAL_SERVER_ERROR';
}
