import path from 'node:path';

/**
 * Apollo Server (5.x) builds the request context it hands to a gateway's executor per request
 * (`makeGatewayGraphQLRequestContext`) as an object literal with a `get status()`/`set status()`
 * pair. V8 (Node 24) turns every such object into a dictionary-mode object, and a per-request
 * accessor pair defined that way keeps the request's objects alive through scavenges after the
 * request ended: every /graphql request's objects (its Apollo request context, HeaderMaps, cache
 * policy, our request context) were promoted to the old generation, 60-80 MiB of garbage per
 * worker until a mark-compact. Measured with `--no-opt --no-maglev`, 4 connections, `{ __typename }`:
 * 1.7 MiB of old-generation growth per scavenge with the literal, under 0.1 without it; a 20-line
 * loop (a literal with a getter, `await setImmediate` between objects) shows the same.
 *
 * This module replaces that function with the same context built from classes (the accessor on a
 * prototype, made once). requestPipeline.js reads the function from its module's exports at each
 * call, so replacing the export is enough. The replacement is installed only when the function
 * still has the shape checked here; otherwise Apollo's own stays (and only the memory cost returns).
 */

type HeaderMap = Map<string, string>;

/** Apollo's FetcherHeadersForHeaderMap: the fetch-style headers view the gateway interface expects. */
class FetcherHeaders {
  constructor(readonly map: HeaderMap) {}
  append(name: string, value: string): void {
    if (this.map.has(name)) this.map.set(name, this.map.get(name) + ', ' + value);
    else this.map.set(name, value);
  }
  delete(name: string): void {
    this.map.delete(name);
  }
  get(name: string): string | null {
    return this.map.get(name) ?? null;
  }
  has(name: string): boolean {
    return this.map.has(name);
  }
  set(name: string, value: string): void {
    this.map.set(name, value);
  }
  entries(): IterableIterator<[string, string]> {
    return this.map.entries();
  }
  keys(): IterableIterator<string> {
    return this.map.keys();
  }
  values(): IterableIterator<string> {
    return this.map.values();
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.map.entries();
  }
}

interface HTTPGraphQLHead {
  status?: number;
  headers: HeaderMap;
}

/** The response's `http` of the gateway context: the status reads and writes through to Apollo's response head. */
class GatewayResponseHttp {
  readonly headers: FetcherHeaders;
  constructor(private readonly head: HTTPGraphQLHead) {
    this.headers = new FetcherHeaders(head.headers);
  }
  get status(): number | undefined {
    return this.head.status;
  }
  set status(status: number | undefined) {
    this.head.status = status;
  }
}

/* eslint-disable @typescript-eslint/no-explicit-any -- Apollo's internal request context and server types are not exported */
/** makeGatewayGraphQLRequestContext of @apollo/server 5, with the response's `http` a GatewayResponseHttp. */
export function makeGatewayRequestContext(newRequestContext: any, server: any, internals: any): any {
  const source = newRequestContext.request;
  const request: Record<string, unknown> = {};
  if ('query' in source) request.query = source.query;
  if ('operationName' in source) request.operationName = source.operationName;
  if ('variables' in source) request.variables = source.variables;
  if ('extensions' in source) request.extensions = source.extensions;
  if (source.http) {
    const http = source.http;
    const needQuestion = http.search !== '' && !http.search.startsWith('?');
    request.http = { method: http.method, url: `https://unknown-url.invalid/${needQuestion ? '?' : ''}${http.search}`, headers: new FetcherHeaders(http.headers) };
  }
  return {
    request,
    response: { http: new GatewayResponseHttp(newRequestContext.response.http) },
    logger: server.logger,
    schema: newRequestContext.schema,
    schemaHash: 'schemaHash no longer exists since Apollo Server 4',
    context: newRequestContext.contextValue,
    cache: server.cache,
    queryHash: newRequestContext.queryHash,
    document: newRequestContext.document,
    source: newRequestContext.source,
    operationName: newRequestContext.operationName,
    operation: newRequestContext.operation,
    errors: newRequestContext.errors,
    metrics: newRequestContext.metrics,
    debug: internals.includeStacktraceInErrorResponses,
    overallCachePolicy: newRequestContext.overallCachePolicy,
    requestIsBatched: newRequestContext.requestIsBatched,
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The module of Apollo Server's CommonJS build that requestPipeline.js calls (not in the package's exports map, so by path). */
export function apolloGatewayContextModule(): { makeGatewayGraphQLRequestContext: (...args: unknown[]) => unknown } {
  const file = path.join(path.dirname(require.resolve('@apollo/server')), 'utils', 'makeGatewayGraphQLRequestContext.js');
  return require(file);
}

/**
 * Installs makeGatewayRequestContext in place of Apollo's when Apollo's is still the literal with the
 * `status` accessor pair this replaces; returns whether it did (idempotent).
 */
export function installGatewayRequestContext(): boolean {
  const mod = apolloGatewayContextModule();
  const current = mod.makeGatewayGraphQLRequestContext;
  if (current === makeGatewayRequestContext) return true;
  const text = String(current);
  if (typeof current !== 'function' || !text.includes('get status()') || !text.includes('FetcherHeadersForHeaderMap')) return false;
  mod.makeGatewayGraphQLRequestContext = makeGatewayRequestContext;
  return true;
}
