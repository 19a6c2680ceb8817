import { SpanStatusCode } from '@opentelemetry/api';
import type { Span, SpanProcessor } from '@opentelemetry/sdk-trace';

const PG_SCOPE = '@opentelemetry/instrumentation-pg';

/**
 * Drops the status message of a failed statement's span: the pg instrumentation copies
 * PostgreSQL's message there, and one such as `invalid input syntax for type uuid: "..."` quotes
 * the value. The error's kind and SQLSTATE stay, in the span's exception event (as in the logs,
 * docs/decisions.md, Logs and errors).
 */
export class DatabaseErrorRedaction implements SpanProcessor {
  onStart(): void {}

  onEnding(span: Span): void {
    if (span.instrumentationScope.name === PG_SCOPE && span.status.message) span.setStatus({ code: SpanStatusCode.ERROR });
  }

  onEnd(): void {}

  async forceFlush(): Promise<void> {}

  async shutdown(): Promise<void> {}
}
