import { context, isSpanContextValid, trace, type Context, type Span, type SpanOptions, type Tracer, type TracerProvider } from '@opentelemetry/api';

/**
 * The tracer provider of a process that does not trace (register.ts): spans are the API's
 * non-recording ones, as with its default no-op tracer, but `startActiveSpan` makes no context.
 *
 * The API's no-op tracer gives every `startActiveSpan` a new context (`setSpan`: a BaseContext,
 * a copied Map, three closures over the context itself), which nothing can read without a context
 * manager, and V8 (Node 24) keeps such objects, and what the callback's request holds, alive
 * through scavenges after the request ended: every request's objects reached the old generation
 * (Apollo Gateway opens four spans per /graphql request, inSubgraphSpan one per subgraph fetch).
 * Without a context manager (none is registered when the SDK is off) `context.with` only calls
 * the function, so skipping the context changes nothing a caller can see. A caller that passes a
 * context with a valid span context still gets the API's behaviour.
 */
const NO_SPAN: Span = trace.wrapSpanContext({ traceId: '00000000000000000000000000000000', spanId: '0000000000000000', traceFlags: 0 });

type SpanFn = (span: Span) => unknown;

class UntracedTracer implements Tracer {
  startSpan(_name: string, _options?: SpanOptions, ctx?: Context): Span {
    const parent = ctx && trace.getSpanContext(ctx);
    return parent && isSpanContextValid(parent) ? trace.wrapSpanContext(parent) : NO_SPAN;
  }

  startActiveSpan<F extends SpanFn>(name: string, fn: F): ReturnType<F>;
  startActiveSpan<F extends SpanFn>(name: string, options: SpanOptions, fn: F): ReturnType<F>;
  startActiveSpan<F extends SpanFn>(name: string, options: SpanOptions, ctx: Context, fn: F): ReturnType<F>;
  startActiveSpan<F extends SpanFn>(name: string, a2?: SpanOptions | F, a3?: Context | F, a4?: F): ReturnType<F> | undefined {
    if (typeof a2 === 'function') return a2(NO_SPAN) as ReturnType<F>;
    if (typeof a3 === 'function') return a3(NO_SPAN) as ReturnType<F>;
    if (typeof a4 !== 'function') return undefined;
    const span = this.startSpan(name, a2, a3);
    if (span === NO_SPAN) return a4(NO_SPAN) as ReturnType<F>;
    return context.with(trace.setSpan(a3 ?? context.active(), span), a4 as SpanFn, undefined, span) as ReturnType<F>;
  }
}

const TRACER = new UntracedTracer();

export class UntracedTracerProvider implements TracerProvider {
  getTracer(): Tracer {
    return TRACER;
  }
}

/** Registers UntracedTracerProvider as the global provider; false if one is already registered (the SDK's). */
export function registerUntraced(): boolean {
  return trace.setGlobalTracerProvider(new UntracedTracerProvider());
}
