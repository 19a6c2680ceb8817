import { defaultServiceName, readTracingSettings } from '../../../../platform/tracing/settings';

describe('readTracingSettings: the OTEL_* variables', () => {
  it('is off by default (no endpoint, nothing to receive spans), named after the script it runs', () => {
    const { settings, problems } = readTracingSettings({}, '/app/dist/subgraphs/billing/main.js');
    expect(problems).toEqual([]);
    expect(settings).toEqual({ enabled: false, endpoint: null, serviceName: 'hpp-billing-subgraph', sampler: { name: 'parentbased_always_on', ratio: 1 }, exportDelayMs: 5_000, maxQueueSize: 2_048 });
  });

  it('runs with an endpoint, or without one when OTEL_SDK_DISABLED=false asks for trace ids alone', () => {
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).settings.enabled).toBe(true);
    expect(readTracingSettings({ OTEL_SDK_DISABLED: 'false' }).settings).toMatchObject({ enabled: true, endpoint: null });
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }).settings.enabled).toBe(false);
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }).settings.enabled).toBe(false);
  });

  it('exports to the traces endpoint before the generic one, unless the exporter is none', () => {
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).settings.endpoint).toBe('http://collector:4318');
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b/v1/traces' }).settings.endpoint).toBe('https://b/v1/traces');
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_TRACES_EXPORTER: 'none' }).settings.endpoint).toBeNull();
  });

  it('reads the switch, the name, the sampler and the batch settings', () => {
    const { settings, problems } = readTracingSettings({
      OTEL_SDK_DISABLED: 'TRUE',
      OTEL_SERVICE_NAME: 'clinic-api',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_BSP_SCHEDULE_DELAY: '250',
      OTEL_BSP_MAX_QUEUE_SIZE: '100',
    });
    expect(problems).toEqual([]);
    expect(settings).toMatchObject({ enabled: false, serviceName: 'clinic-api', sampler: { name: 'parentbased_traceidratio', ratio: 0.25 }, exportDelayMs: 250, maxQueueSize: 100 });
  });

  it('lists every bad value at once', () => {
    const { problems } = readTracingSettings({
      OTEL_SDK_DISABLED: 'maybe',
      OTEL_TRACES_EXPORTER: 'zipkin',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_TRACES_SAMPLER: 'jaeger_remote',
      OTEL_TRACES_SAMPLER_ARG: '2',
      OTEL_BSP_SCHEDULE_DELAY: 'soon',
    });
    expect(problems).toHaveLength(7);
    expect(problems.join('\n')).toMatch(/OTEL_EXPORTER_OTLP_PROTOCOL must be http\/json/);
  });

  it('names the processes of the platform', () => {
    expect(defaultServiceName('/app/dist/gateway/main.js')).toBe('hpp-gateway');
    expect(defaultServiceName('/app/dist/gateway/worker.js')).toBe('hpp-worker');
    expect(defaultServiceName('/app/dist/subgraphs/notes/main.js')).toBe('hpp-notes-subgraph');
  });
});
