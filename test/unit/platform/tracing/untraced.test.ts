import { context, ROOT_CONTEXT, trace, isSpanContextValid } from '@opentelemetry/api';
import { UntracedTracerProvider } from '../../../../platform/tracing/untraced';

describe('UntracedTracerProvider (tracing off)', () => {
  const tracer = new UntracedTracerProvider().getTracer();

  it('calls the function of every startActiveSpan form with a non-recording span and returns its result', async () => {
    const seen: boolean[] = [];
    const fn = (span: ReturnType<typeof tracer.startSpan>) => {
      seen.push(span.isRecording());
      expect(isSpanContextValid(span.spanContext())).toBe(false);
      span.setAttribute('a', 'b').end();
      return 42;
    };
    expect(tracer.startActiveSpan('a', fn)).toBe(42);
    expect(tracer.startActiveSpan('b', { attributes: { x: 'y' } }, fn)).toBe(42);
    expect(tracer.startActiveSpan('c', {}, ROOT_CONTEXT, fn)).toBe(42);
    await expect(tracer.startActiveSpan('d', async () => 'async')).resolves.toBe('async');
    expect(seen).toEqual([false, false, false]);
  });

  it('keeps a valid parent span context passed explicitly, as the API no-op tracer does', () => {
    const parent = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 };
    const ctx = trace.setSpanContext(ROOT_CONTEXT, parent);
    expect(tracer.startSpan('s', {}, ctx).spanContext()).toEqual(parent);
    const inner = tracer.startActiveSpan('s', {}, ctx, (span) => span.spanContext());
    expect(inner).toEqual(parent);
  });

  it('makes no context: the active one is unchanged inside the callback', () => {
    const before = context.active();
    tracer.startActiveSpan('s', () => expect(context.active()).toBe(before));
  });
});
