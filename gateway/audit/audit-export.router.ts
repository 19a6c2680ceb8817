import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { GraphQLEnumType, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { coerceRequest } from '../../rest-bridge/coerce';
import { coerceText } from '../../rest-bridge/coerce-value';
import { restSpelling } from '../../rest-bridge/enum-spelling';
import { withScalarParsers } from '../../rest-bridge/router';
import { AUDIT_FILTER_PARAMS, AUDIT_FILTER_VARIABLES } from '../../rest-bridge/routes/audit.routes';
import type { RouteDefinition } from '../../rest-bridge/types';
import { relocate } from '../../rest-bridge/validation-error';
import { ValidationError, type ValidationIssue } from '../../schema/errors';
import type { RequestContext } from '../../schema/request-context';
import { parseSingleOperation } from '../../schema/single-operation';
import type { AuditEventFilter, AuditEventRecord, TenantAccess } from '../../subgraphs/tenant';
import type { ScopeCheck } from '../access/scope-check';
import { EDGE_ROUTE_SCOPES } from '../access/scope-table';
import { routeNamed } from '../http/access-log';
import { contextOf } from '../http/request-context';
import { EXPORT_FORMATS, type ExportFormat } from './export-format';

const ROUTE = EDGE_ROUTE_SCOPES.find((route) => route.path === '/audit/events/export')!;

/**
 * The export's query parameters as the bridge reads `GET /audit/events`'s: this route is never
 * run as an operation, its document only gives the variables' types, so that both answer a bad
 * parameter with the same 422 and the subgraph's issues are located in the query the same way.
 */
const EXPORT_QUERY: RouteDefinition = {
  method: 'GET',
  path: ROUTE.path,
  operationId: 'exportAuditEvents',
  summary: 'Every matching audit record, streamed',
  tag: 'Audit',
  document: `query AuditExport(${AUDIT_FILTER_VARIABLES}) { auditEvents(actorId: $actorId, actorKind: $actorKind, resourceId: $resourceId, action: $action, from: $from, to: $to, sortDirection: $sortDirection) { totalCount } }`,
  queryParams: AUDIT_FILTER_PARAMS,
  result: () => null,
};

const FORMAT = new GraphQLEnumType({ name: 'AuditExportFormat', values: Object.fromEntries(Object.keys(EXPORT_FORMATS).map((name) => [name, {}])) });

/** What an export request asks for, read and checked. */
interface ExportRequest {
  filter: AuditEventFilter;
  direction: 'asc' | 'desc';
  format: ExportFormat;
}

/** Reads the query string into an export request, or throws every issue of it at once (422 at `["query", <name>]`). */
function exportRequest(schema: GraphQLSchema, operation: OperationDefinitionNode, query: Request['query']): ExportRequest {
  const coerced = coerceRequest(EXPORT_QUERY, operation, schema, { pathParams: {}, query: query as Record<string, string | string[] | undefined>, headers: {}, body: undefined });
  const issues: ValidationIssue[] = 'issues' in coerced ? [...coerced.issues] : [];
  const raw = query.format as string | string[] | undefined;
  const format = raw === undefined ? 'ndjson' : (coerceText(FORMAT, raw, ['query', 'format'], issues) as keyof typeof EXPORT_FORMATS | undefined);
  if ('issues' in coerced || !format) throw new ValidationError(issues);
  const v = coerced.variables as Record<string, string | undefined>;
  const date = (text: string | undefined) => (text === undefined ? null : new Date(text));
  // The variables hold the graph's enum names (`KEY`, `DESC`); the service takes the stored values.
  const stored = (variable: string, typeName: string) => (v[variable] === undefined ? undefined : restSpelling(schema.getType(typeName) as GraphQLEnumType, v[variable]!));
  return {
    filter: { actorId: v.actorId, actorKind: stored('actorKind', 'AuditActorKind') as AuditEventFilter['actorKind'], resourceId: v.resourceId, action: v.action, from: date(v.from), to: date(v.to) },
    // The graph's default, as `GET /audit/events` has it: the export is that list's pages, joined.
    direction: (stored('sortDirection', 'SortDirection') as 'asc' | 'desc' | undefined) ?? 'desc',
    format: EXPORT_FORMATS[format],
  };
}

/** The export's text: the format's head, then a chunk per page of records as they are read. */
async function* exportText(format: ExportFormat, pages: AsyncIterable<AuditEventRecord[]>): AsyncGenerator<string> {
  if (format.head) yield format.head;
  for await (const page of pages) yield format.page(page);
}

/** `audit-events-<tenant>-<UTC time>.<ext>`: names the tenant and the moment, nothing a header could be broken with. */
const fileName = (ctx: RequestContext, format: ExportFormat) => `audit-events-${ctx.tenantId}-${new Date().toISOString().replace(/[-:]|\.\d+/g, '')}.${format.extension}`;

/**
 * `GET /audit/events/export?format=ndjson|csv` (docs/api.md, The audit trail): every record of the
 * tenant's audit trail that the filters of `GET /audit/events` match, in its order, streamed as
 * an attachment. Answered here rather than by the bridge, whose routes answer one JSON document.
 * In order: the tenant's credentials and budget (`authenticate`), the scope (`ScopeCheck.require`,
 * before anything is read), the parameters (422), then the export's own `audit.export` record,
 * written before the first byte is sent; a failure up to there is an ordinary JSON error. Then
 * the records, a page per statement, each read only once the client has taken the one before
 * (backpressure through `pipeline`); the client going away aborts the request's signal, which
 * stops the walk. A failure after the first byte can only cut the answer short: the chunked body
 * then lacks its last chunk, which HTTP clients report as an error.
 */
export function auditExportRouter(tenants: TenantAccess, scopes: ScopeCheck, authenticate: RequestHandler, apiSchema: GraphQLSchema): Router {
  const router = Router();
  const schema = withScalarParsers(apiSchema);
  // Checked against the graph once, at start-up, as the bridge's routes are.
  const { operation } = parseSingleOperation(EXPORT_QUERY.document, schema);
  router.get(ROUTE.path, routeNamed(ROUTE.path), authenticate, async (req: Request, res: Response) => {
    const ctx = contextOf(res);
    scopes.require(ROUTE.scope, ctx.scopes ?? null);
    const asked = exportRequest(schema, operation, req.query);
    const by = { actor: ctx.actor ?? { kind: 'system' as const, id: null }, requestId: ctx.requestId, clientAddress: ctx.clientAddress ?? null };
    const pages = await tenants.exportAuditEvents(ctx.tenantId!, asked.filter, asked.direction, by).catch((error: unknown) => {
      throw error instanceof ValidationError ? new ValidationError(relocate(error.issues, EXPORT_QUERY)) : error;
    });
    res.status(200).set({
      'Content-Type': asked.format.contentType,
      'Content-Disposition': `attachment; filename="${fileName(ctx, asked.format)}"`,
      'Cache-Control': 'no-store',
    });
    try {
      // One chunk buffered ahead at most: a page is read when the socket has taken the one before.
      await pipeline(Readable.from(exportText(asked.format, pages), { highWaterMark: 1 }), res, { signal: ctx.signal });
    } catch (error) {
      // Headers are sent: no error answer is possible any more, and pipeline has destroyed the response.
      if (!ctx.signal?.aborted) ctx.log.error({ err: error }, 'audit export failed after it started; the answer was cut short');
    }
  });
  return router;
}

/**
 * The export's OpenAPI path item, written here as it is not a bridge route: the list's parameters
 * but its page ones, plus `format`, and the list's error answers.
 */
export function auditExportOpenApi(list: { parameters?: { name: string }[]; responses: Record<string, unknown> } | undefined): Record<string, unknown> {
  const { 200: _page, ...errors } = list?.responses ?? {};
  const format = { name: 'format', in: 'query', required: false, schema: { type: 'string', enum: Object.keys(EXPORT_FORMATS), default: 'ndjson' } };
  const text = { schema: { type: 'string' } };
  return {
    [ROUTE.path]: {
      get: {
        operationId: EXPORT_QUERY.operationId,
        summary: "Every audit record the filters of GET /audit/events match, in its order, streamed as an attachment (NDJSON or CSV); recorded as `audit.export`",
        tags: [EXPORT_QUERY.tag],
        parameters: [...(list?.parameters ?? []).filter((p) => p.name !== 'page' && p.name !== 'per_page'), format],
        responses: {
          200: {
            description:
              'The records up to and including the export\'s own `audit.export` record, streamed (chunked): NDJSON, one item of `GET /audit/events` per line; or CSV (RFC 4180, CRLF, a header line; `resourceIds` space-separated). `Content-Disposition: attachment`. An answer cut short (no last chunk) is incomplete',
            content: { 'application/x-ndjson': text, 'text/csv': text },
          },
          ...errors,
        },
      },
    },
  };
}
