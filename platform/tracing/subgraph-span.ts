import { context, isSpanContextValid, trace, SpanStatusCode, type Context, type Span } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
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
 * The context an unrecorded operation runs in: no active span and tracing suppressed. Every sampler
 * this platform offers decides alike for a span and its children (docs/tracing.md), so nothing
 * under an unrecorded subgraph span would be recorded; the pg instrumentation, which makes a span
 * for each statement whenever a parent span is active, recording or not, skips the statements
 * without one (`requireParentSpan`): most of what sampling left on an unsampled request.
 */
const unrecorded = (active: Context): Context => suppressTracing(trace.deleteSpan(active));

/**
 * Runs one subgraph operation inside a `subgraph <name>` span, the same in-process (the gateway's
 * local data source) and in a subgraph service: its SQL statements become its children. An
 * operation whose span is not recorded (the request was not sampled, or nothing is exported) runs
 * with tracing suppressed: no spans, no `traceparent` on its calls, no trace id on its log lines.
 */
export function inSubgraphSpan<T>(fetch: SubgraphFetch, run: (span: Span) => Promise<T>): Promise<T> {
  const attributes: Record<string, string> = { 'subgraph.name': fetch.subgraph };
  if (fetch.tenantId) attributes[TENANT_ID] = fetch.tenantId;
  if (fetch.operationName) attributes['graphql.operation.name'] = fetch.operationName;
  return tracer.startActiveSpan(`subgraph ${fetch.subgraph}`, { attributes }, (span) => {
    if (span.isRecording()) return recorded(span, run);
    // Without the SDK (untraced.ts) there is no context to change, and none is made.
    return isSpanContextValid(span.spanContext()) ? context.with(unrecorded(context.active()), run, undefined, span) : run(span);
  });
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
