import { trace, type Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace';

/** The attribute naming the tenant a span worked for (a UUID; never a name). */
export const TENANT_ID = 'tenant.id';

/** Tags the span active here (the edge's HTTP span, a subgraph service's) with the tenant it serves. */
export function tagTenant(tenantId: string): void {
  trace.getActiveSpan()?.setAttribute(TENANT_ID, tenantId);
}

/**
 * Copies the parent's `tenant.id` onto each new span, so every span of a request below the one
 * tagged at authentication carries it (the gateway's, the subgraph's, each SQL statement's)
 * without the tenant travelling through code that does not know it. A parent in another process
 * has no attributes here: a subgraph service tags its own span from the identity header.
 */
export class TenantAttributeProcessor implements SpanProcessor {
  onStart(span: Span, parentContext: Context): void {
    const parent = trace.getSpan(parentContext) as Partial<ReadableSpan> | undefined;
    const tenantId = parent?.attributes?.[TENANT_ID];
    if (typeof tenantId === 'string') span.setAttribute(TENANT_ID, tenantId);
  }

  onEnd(): void {}

  async forceFlush(): Promise<void> {}

  async shutdown(): Promise<void> {}
}
