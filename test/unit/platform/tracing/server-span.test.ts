import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, propagation, SpanKind, SpanStatusCode, trace, type SpanContext } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { isTracingSuppressed, W3CTraceContextPropagator } from '@opentelemetry/core';
import { AlwaysOnSampler, InMemorySpanExporter, ParentBasedSampler, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import express from 'express';
import { setHttpRoute } from '../../../../platform/tracing/http-route';
import { enableServerSpans, withServerSpans } from '../../../../platform/tracing/server-span';
import { inSubgraphSpan } from '../../../../platform/tracing/subgraph-span';

/** What the handler saw of the trace: the active span's context, whether it recorded, whether tracing was suppressed. */
interface Seen {
  spanContext?: SpanContext;
  recording?: boolean;
  suppressed: boolean;
  /** Inside a subgraph operation run under the request. */
  inSubgraph?: { hasSpan: boolean; recording: boolean; suppressed: boolean };
}

const hex = (bytes: number) => Buffer.from(Array.from({ length: bytes }, () => Math.floor(Math.random() * 256))).toString('hex');

describe('server spans (server-span.ts) and unrecorded subgraph operations (subgraph-span.ts)', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }), spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  let server: Server;
  let base = '';
  let seen: Seen[] = [];

  beforeAll(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(provider);
    enableServerSpans();
    const app = express();
    // A body parsed by express.json reaches the handler in the request's context (raw-body keeps it).
    app.post('/things/:id', express.json(), async (req, res) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const span = trace.getActiveSpan();
      const inSubgraph = await inSubgraphSpan({ subgraph: 'tenant', tenantId: null }, async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        const inner = trace.getActiveSpan();
        return { hasSpan: inner !== undefined, recording: inner?.isRecording() ?? false, suppressed: isTracingSuppressed(context.active()) };
      });
      seen.push({ spanContext: span?.spanContext(), recording: span?.isRecording(), suppressed: isTracingSuppressed(context.active()), inSubgraph });
      res.on('finish', () => setHttpRoute('/things/{id}'));
      res.status(req.body.fail ? 500 : 200).json({ ok: true });
    });
    app.get('/healthz', (_req, res) => {
      seen.push({ suppressed: isTracingSuppressed(context.active()) });
      res.json({ ok: true });
    });
    server = createServer(withServerSpans(app)).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });
  beforeEach(() => {
    seen = [];
    exporter.reset();
  });

  const post = async (path: string, traceparent: string, body: object) => {
    const res = await fetch(`${base}${path}?secret=s3cr3t`, { method: 'POST', headers: { traceparent, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await res.arrayBuffer();
    return res.status;
  };
  const finished = async () => {
    for (let i = 0; i < 100 && exporter.getFinishedSpans().length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    return exporter.getFinishedSpans();
  };

  it('records a sampled request as a server span joined to its caller, named by the route template, with no path or query string', async () => {
    const traceId = hex(16);
    const callerSpanId = hex(8);
    expect(await post('/things/zq7f3e9c', `00-${traceId}-${callerSpanId}-01`, { fail: false })).toBe(200);
    const spans = await finished();
    const edge = spans.find((span) => span.kind === SpanKind.SERVER)!;
    expect(edge).toBeDefined();
    expect(edge.name).toBe('POST /things/{id}');
    expect(edge.spanContext().traceId).toBe(traceId);
    expect(edge.parentSpanContext?.spanId).toBe(callerSpanId);
    expect(edge.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/things/{id}', 'http.response.status_code': 200 });
    expect(JSON.stringify(edge.attributes)).not.toMatch(/zq7f3e9c|s3cr3t/);
    expect(edge.status.code).toBe(SpanStatusCode.UNSET);
    // The handler ran in the span's context, after the body was parsed; the subgraph span under it recorded.
    expect(seen[0].spanContext?.spanId).toBe(edge.spanContext().spanId);
    expect(seen[0].inSubgraph).toEqual({ hasSpan: true, recording: true, suppressed: false });
    expect(spans.find((span) => span.name === 'subgraph tenant')?.parentSpanContext?.spanId).toBe(edge.spanContext().spanId);
  });

  it('marks a 5xx answer as an error', async () => {
    expect(await post('/things/zq7f3e9c', `00-${hex(16)}-${hex(8)}-01`, { fail: true })).toBe(500);
    const edge = (await finished()).find((span) => span.kind === SpanKind.SERVER)!;
    expect(edge.status.code).toBe(SpanStatusCode.ERROR);
    expect(edge.attributes['http.response.status_code']).toBe(500);
  });

  it('records nothing of an unsampled request, which keeps its trace id; its subgraph operation runs with tracing suppressed', async () => {
    const traceId = hex(16);
    expect(await post('/things/zq7f3e9c', `00-${traceId}-${hex(8)}-00`, { fail: false })).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(seen[0].spanContext?.traceId).toBe(traceId);
    expect(seen[0].spanContext?.traceFlags).toBe(0);
    expect(seen[0].recording).toBe(false);
    expect(seen[0].suppressed).toBe(false);
    expect(seen[0].inSubgraph).toEqual({ hasSpan: false, recording: false, suppressed: true });
  });

  it('traces no probe: /healthz runs with tracing suppressed', async () => {
    const res = await fetch(`${base}/healthz`, { headers: { traceparent: `00-${hex(16)}-${hex(8)}-01` } });
    expect(res.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(seen).toEqual([{ suppressed: true }]);
  });
});
