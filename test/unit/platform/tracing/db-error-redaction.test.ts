import { SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { DatabaseErrorRedaction } from '../../../../platform/tracing/db-error-redaction';

describe('DatabaseErrorRedaction', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new DatabaseErrorRedaction(), new SimpleSpanProcessor({ exporter })] });
  afterAll(() => provider.shutdown());

  it("drops PostgreSQL's message (it may quote a value) from a failed statement's span, and no other span's", () => {
    const message = 'invalid input syntax for type uuid: "Ada Lovelace"';
    for (const scope of ['@opentelemetry/instrumentation-pg', 'healthcare-practice-platform']) {
      const span = provider.getTracer(scope).startSpan('pg.query:SELECT');
      span.setStatus({ code: SpanStatusCode.ERROR, message });
      span.end();
    }
    const [pg, own] = exporter.getFinishedSpans();
    expect(pg.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(own.status).toEqual({ code: SpanStatusCode.ERROR, message });
  });
});
