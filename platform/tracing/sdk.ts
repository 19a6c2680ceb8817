import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { DatabaseErrorRedaction } from './db-error-redaction';
import { platformInstrumentations } from './instrumentations';
import { enableServerSpans } from './server-span';
import type { SamplerSetting, TracingSettings } from './settings';
import { TenantAttributeProcessor } from './tenant-attribute';

/** A started SDK: flush sends what is queued (before an exit), shutdown also stops exporting. */
export interface RunningTracing {
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

function samplerOf({ name, ratio }: SamplerSetting): Sampler {
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/**
 * Starts the OpenTelemetry SDK for this process: W3C trace context in and out (`traceparent`;
 * no baggage, which would hand the tenant to every webhook receiver), the instrumentations of
 * instrumentations.ts, and, with an endpoint, a batch exporter over OTLP/HTTP. Without an endpoint
 * no span is recorded (nothing would receive it): requests still get trace ids, in their log lines
 * and in the `traceparent` passed to subgraph services, at the cost measured in bench/RESULTS.md.
 * Must run before `http`, `pg` or `pino` is first required: register.ts is every entry point's first import.
 */
export function startTracing(settings: TracingSettings): RunningTracing {
  const processors: SpanProcessor[] = [new TenantAttributeProcessor()];
  if (settings.endpoint) {
    processors.push(new DatabaseErrorRedaction(), new BatchSpanProcessor({ exporter: new OTLPTraceExporter(), scheduledDelayMillis: settings.exportDelayMs, maxQueueSize: settings.maxQueueSize }));
  }
  const provider = new TracerProvider({
    // OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME win over the default name.
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName }).merge(detectResources({ detectors: [envDetector] })),
    sampler: settings.endpoint ? samplerOf(settings.sampler) : new AlwaysOffSampler(),
    spanProcessors: processors,
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  registerInstrumentations({ tracerProvider: provider, instrumentations: platformInstrumentations(settings.endpoint !== null) });
  enableServerSpans();
  return { flush: () => provider.forceFlush(), shutdown: () => provider.shutdown() };
}
