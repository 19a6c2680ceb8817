import { STATUS_CODES } from 'node:http';
import type { Request, Response } from 'express';
import { Kind, parse, specifiedRules, validate, type DocumentNode, type ExecutionResult, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/express';
import type { RunningSubgraph } from '../subgraphs/shared/subgraph-runtime';
import { IDENTITY_HEADERS, type SubgraphContext } from '../subgraphs/shared/context';
import { formatResult } from '../subgraphs/shared/format-error';
import type { SubgraphName } from '../subgraphs/shared/subgraph-definition';
import type { Config, GraphQLLimits } from './config';
import { armorProtection, parseTokenLimit, withoutSuggestions } from './graphql-limits';
import { operationTextIssues, surrogateLiteralError, textRuleError } from './graphql-text-rule';
import { contextOf } from './request-context';

/** graphql-sse's response tuple for a refused subscription. */
type Rejection = [string, { status: number; statusText: string; headers: Record<string, string> }];

/**
 * A graphql-sse rejection: a JSON error body with a code. The status line carries the status's
 * fixed reason phrase, never the message: node refuses a non-Latin-1 character there, which
 * turned the refusal into a 500 HTML page.
 */
const reject = (status: number, message: string, extensions: Record<string, unknown>): Rejection => [
  JSON.stringify({ errors: [{ message, extensions }] }),
  { status, statusText: STATUS_CODES[status] ?? 'Error', headers: { 'content-type': 'application/json; charset=utf-8' } },
];

/** A subscription that passed the checks of `/graphql`: parsed, with its root field and the schema it was validated on. */
interface CheckedSubscription {
  document: DocumentNode;
  field: string;
  schema: GraphQLSchema;
}

/**
 * The checks `/graphql` makes, for `/graphql/stream`: the token limit while parsing, validation on
 * the schema `schemaFor` gives for the root field, with GraphQL Armor's depth, alias, directive
 * and cost rules, and the text rule over literals and variables.
 */
function subscriptionChecker(limits: GraphQLLimits, schemaFor: (field: string) => GraphQLSchema | undefined) {
  const rules = [...specifiedRules, ...armorProtection(limits).validationRules];
  return (query: unknown, operationName: string | null | undefined, variables: unknown): CheckedSubscription | Rejection => {
    let document: DocumentNode;
    try {
      document = parse(String(query ?? ''), parseTokenLimit(limits));
    } catch (error) {
      const parseFailed = { message: (error as Error).message, extensions: { code: 'GRAPHQL_PARSE_FAILED' } };
      const surrogate = surrogateLiteralError(parseFailed, error);
      return surrogate ? reject(400, surrogate.message, surrogate.extensions!) : reject(400, parseFailed.message, parseFailed.extensions);
    }
    const field = subscriptionField(document, operationName);
    if (typeof field !== 'string') return reject(400, field.error, { code: 'BAD_REQUEST' });
    const schema = schemaFor(field);
    if (!schema) return reject(400, `Unknown subscription field "${field}"`, { code: 'GRAPHQL_VALIDATION_FAILED' });
    const problems = validate(schema, document, rules);
    if (problems.length > 0) {
      return reject(400, problems.map((p) => withoutSuggestions(limits, p.message)).join('; '), { code: 'GRAPHQL_VALIDATION_FAILED' });
    }
    const issues = operationTextIssues(document, variables);
    if (issues.length > 0) {
      const { message, extensions } = textRuleError(issues);
      const { http: _http, ...rest } = extensions;
      return reject(400, message, rest);
    }
    return { document, field, schema };
  };
}

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
export function localStreamHandler(subgraphs: RunningSubgraph[], owners: Map<string, SubgraphName>, limits: GraphQLLimits) {
  const subgraphOf = (field: string) => subgraphs.find((s) => s.name === owners.get(field));
  const check = subscriptionChecker(limits, (field) => subgraphOf(field)?.schema);
  return createHandler({
    authenticate: () => null,
    onSubscribe: (req, params) => {
      const checked = check(params.query, params.operationName, params.variables);
      if (Array.isArray(checked)) return checked;
      const { document, field, schema } = checked;
      const subgraph = subgraphOf(field)!;
      const ctx = contextOf(req.context.res);
      return {
        schema,
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

/** A GET request's `variables` arrive as JSON text; anything unreadable is left for the subgraph to refuse. */
function variablesOf(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

/**
 * `/graphql/stream` in distributed mode: checks the subscription as `/graphql` would (on the
 * gateway's API schema), finds the owning subgraph and relays its event stream, adding the
 * identity headers; a client that goes away aborts the upstream request.
 */
export function proxyStreamHandler(config: Config, owners: Map<string, SubgraphName>, apiSchema: GraphQLSchema) {
  const check = subscriptionChecker(config.graphql, (field) => (owners.has(field) ? apiSchema : undefined));
  return async (req: Request, res: Response) => {
    const params = (req.method === 'GET' ? req.query : req.body) as { query?: unknown; operationName?: string; variables?: unknown } | undefined;
    const checked = check(params?.query, params?.operationName, variablesOf(params?.variables));
    if (Array.isArray(checked)) {
      const [body, init] = checked;
      return res.status(init.status).type('application/json').send(body);
    }
    const owner = owners.get(checked.field)!;
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
