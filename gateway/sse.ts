import type { Request, Response } from 'express';
import { Kind, parse, validate, type DocumentNode, type ExecutionResult, type OperationDefinitionNode } from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/express';
import type { RunningSubgraph } from '../subgraphs/shared/subgraph-runtime';
import { IDENTITY_HEADERS, type SubgraphContext } from '../subgraphs/shared/context';
import { formatResult } from '../subgraphs/shared/format-error';
import type { SubgraphName } from '../subgraphs/shared/subgraph-definition';
import type { Config } from './config';
import { contextOf } from './request-context';

/** A graphql-sse rejection: a JSON error body with a status, as graphql-sse's response tuple. */
const reject = (status: number, message: string): [string, { status: number; statusText: string; headers: Record<string, string> }] => [
  JSON.stringify({ errors: [{ message }] }),
  { status, statusText: message, headers: { 'content-type': 'application/json; charset=utf-8' } },
];

/** The single root field of a subscription operation, or an error message; the REST bridge's executor routes by it too. */
export function subscriptionField(document: DocumentNode, operationName?: string | null): string | { error: string } {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
  if (!operation) return { error: 'Could not determine which operation to run' };
  if (operation.operation !== 'subscription') return { error: `Only subscriptions are served here; send ${operation.operation}s to /graphql` };
  const fields = operation.selectionSet.selections.filter((s) => s.kind === Kind.FIELD);
  if (fields.length !== 1 || operation.selectionSet.selections.length !== 1) return { error: 'A subscription must select exactly one root field' };
  return fields[0].kind === Kind.FIELD ? fields[0].name.value : { error: 'A subscription must select exactly one root field' };
}

/**
 * `/graphql/stream` in all-in-one mode: graphql-sse's distinct-connection mode (no reservation
 * tokens, so streams never cross tenants), executing on the owning subgraph's schema.
 */
export function localStreamHandler(subgraphs: RunningSubgraph[], owners: Map<string, SubgraphName>) {
  return createHandler({
    authenticate: () => null,
    onSubscribe: (req, params) => {
      let document: DocumentNode;
      try {
        document = parse(params.query as string);
      } catch (error) {
        return reject(400, (error as Error).message);
      }
      const field = subscriptionField(document, params.operationName);
      if (typeof field !== 'string') return reject(400, field.error);
      const subgraph = subgraphs.find((s) => s.name === owners.get(field));
      if (!subgraph) return reject(400, `Unknown subscription field "${field}"`);
      const problems = validate(subgraph.schema, document);
      if (problems.length > 0) return reject(400, problems.map((p) => p.message).join('; '));
      const ctx = contextOf(req.context.res);
      return {
        schema: subgraph.schema,
        document,
        operationName: params.operationName,
        variableValues: params.variables,
        contextValue: subgraph.context({ tenantId: ctx.tenantId, requestId: ctx.requestId }) as never,
      };
    },
    // graphql-sse has no formatError: domain errors keep their code, anything else is a logged 500.
    onNext: (ctx, req, result) =>
      formatResult(
        result as ExecutionResult,
        (error, requestId) => contextOf(req.context.res).log.error({ err: error, requestId }, 'subscription failed'),
        (ctx as unknown as SubgraphContext).requestId,
      ),
  });
}

/**
 * `/graphql/stream` in distributed mode: finds the owning subgraph and relays its event stream,
 * adding the identity headers; a client that goes away aborts the upstream request.
 */
export function proxyStreamHandler(config: Config, owners: Map<string, SubgraphName>) {
  return async (req: Request, res: Response) => {
    const params = (req.method === 'GET' ? req.query : req.body) as { query?: string; operationName?: string };
    let field: string | { error: string };
    try {
      field = subscriptionField(parse(String(params?.query ?? '')), params?.operationName);
    } catch (error) {
      field = { error: (error as Error).message };
    }
    const owner = typeof field === 'string' ? owners.get(field) : undefined;
    if (typeof field !== 'string' || !owner) {
      const [body, init] = reject(400, typeof field === 'string' ? `Unknown subscription field "${field}"` : field.error);
      return res.status(init.status).type('application/json').send(body);
    }
    const ctx = contextOf(res);
    const upstreamUrl = new URL('/graphql/stream', config.subgraphUrls[owner]);
    if (req.method === 'GET') upstreamUrl.search = new URL(req.originalUrl, 'http://x').search;
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const upstream = await fetch(upstreamUrl, {
      method: req.method,
      signal: abort.signal,
      headers: {
        accept: 'text/event-stream',
        'content-type': 'application/json',
        [IDENTITY_HEADERS.secret]: config.internalSecret!,
        [IDENTITY_HEADERS.tenant]: ctx.tenantId!,
        [IDENTITY_HEADERS.requestId]: ctx.requestId,
      },
      body: req.method === 'GET' ? undefined : JSON.stringify(req.body),
    }).catch(() => null);
    if (!upstream) return res.headersSent ? res.end() : res.status(502).json({ detail: 'Subgraph unavailable' });
    res.status(upstream.status);
    for (const header of ['content-type', 'cache-control', 'x-accel-buffering']) {
      const value = upstream.headers.get(header);
      if (value) res.setHeader(header, value);
    }
    res.flushHeaders();
    try {
      for await (const chunk of upstream.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
    } catch {
      // The client left or the subgraph dropped: either way the stream is over.
    }
    res.end();
  };
}
