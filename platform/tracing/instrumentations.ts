import type { RequestOptions } from 'node:http';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { ATTR_DB_QUERY_TEXT, ATTR_URL_FULL, ATTR_URL_PATH, ATTR_URL_QUERY } from '@opentelemetry/semantic-conventions';
import { sanitizeSql, urlWithoutQuery } from './redact';

const pathOf = (url: string | undefined) => (url ?? '/').split('?', 1)[0];

/** The URL of an outgoing node:http call, without its query string. */
function outgoingUrl(options: RequestOptions): string | undefined {
  const host = options.hostname ?? options.host ?? 'localhost';
  const port = options.port ? `:${options.port}` : '';
  return urlWithoutQuery(`${options.protocol ?? 'http:'}//${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}${port}${pathOf(options.path ?? '/')}`);
}

/**
 * The official instrumentations this platform loads, configured so that no body, header, query
 * string, path id or SQL value reaches an attribute (docs/tracing.md, "What a span never holds"):
 * - http, client side (Apollo's calls to subgraph services, webhook POSTs): no header is
 *   captured, no query string; the server spans of the edge and the subgraph services are
 *   server-span.ts's (route template, never the raw path: it may carry an id or the lead
 *   webhook's secret);
 * - undici (fetch: the SSE proxy to subgraph services, the LLM provider, remote seeding): the same;
 * - pg, when exporting: one span per statement inside a traced request (none for the pollers'
 *   queries outside one), with the statement's shape only, no values, no connection spans;
 * - pino: trace_id and span_id on every log line (logs stay on stdout; none are sent).
 * GraphQL execution is traced by Apollo Gateway's own spans and the subgraph span
 * (subgraph-span.ts); graphql-js's instrumentation would add a span per parse, validation and
 * resolver, and record validation messages that quote the client's literals.
 */
export function platformInstrumentations(exporting: boolean): Instrumentation[] {
  const instrumentations: Instrumentation[] = [
    new HttpInstrumentation({
      // Server spans are server-span.ts's: the instrumentation's cost every request as much sampled or not.
      disableIncomingRequestInstrumentation: true,
      startOutgoingSpanHook: (options) => ({ [ATTR_URL_FULL]: outgoingUrl(options) }),
    }),
    new UndiciInstrumentation({
      startSpanHook: (request) => ({ [ATTR_URL_FULL]: urlWithoutQuery(new URL(request.path, request.origin)), [ATTR_URL_PATH]: undefined, [ATTR_URL_QUERY]: undefined }),
    }),
    new PinoInstrumentation({ disableLogSending: true }),
  ];
  // Without an exporter no span is recorded, and no log line is written inside a statement: its
  // span would be made for nobody, on the path every query takes.
  if (exporting) {
    instrumentations.push(
      new PgInstrumentation({
        requireParentSpan: true,
        ignoreConnectSpans: true,
        enhancedDatabaseReporting: false,
        requestHook: (span, { query }) => {
          if (span.isRecording()) span.setAttribute(ATTR_DB_QUERY_TEXT, sanitizeSql(query.text));
        },
      }),
    );
  }
  return instrumentations;
}
