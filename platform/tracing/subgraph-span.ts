import { trace, SpanStatusCode, type Span } from '@opentelemetry/api';
import { TENANT_ID } from './tenant-attribute';

/** The tracer of the platform's own spans (docs/tracing.md lists them). */
export const tracer = trace.getTracer('healthcare-practice-platform');

/** What a subgraph span says about the fetch it runs: never its variables or document. */
export interface SubgraphFetch {
  subgraph: string;
  tenantId: string | null;
  /** The operation name Apollo Gateway gave the fetch, if any (`TenantPublic__tenant__0`). */
  operationName?: string | null;
}

/**
 * Runs one subgraph operation inside a `subgraph <name>` span, the same in-process (the gateway's
 * local data source) and in a subgraph service: its SQL statements become its children.
 */
export function inSubgraphSpan<T>(fetch: SubgraphFetch, run: (span: Span) => Promise<T>): Promise<T> {
  const attributes: Record<string, string> = { 'subgraph.name': fetch.subgraph };
  if (fetch.tenantId) attributes[TENANT_ID] = fetch.tenantId;
  if (fetch.operationName) attributes['graphql.operation.name'] = fetch.operationName;
  return tracer.startActiveSpan(`subgraph ${fetch.subgraph}`, { attributes }, (span) => (span.isRecording() ? recorded(span, run) : run(span)));
}

/** Runs `run` in a span that records: its failure marks the span, and the span ends with it. A span that records nothing (tracing off) needs neither. */
async function recorded<T>(span: Span, run: (span: Span) => Promise<T>): Promise<T> {
  try {
    return await run(span);
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}
