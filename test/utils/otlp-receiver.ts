import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from './eventually';

/** One span as an OTLP/HTTP JSON export carries it, with its resource's service name and its attributes flattened. */
export interface ReceivedSpan {
  service: string;
  scope: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  /** Every string in the span: its name, attribute values, event names and attributes, status message. */
  strings: string[];
}

/** A local OTLP/HTTP (JSON) trace receiver: what servers pointed at it with OTEL_EXPORTER_OTLP_ENDPOINT exported. */
export interface OtlpReceiver {
  /** The value for OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  spans: ReceivedSpan[];
  /** Waits (up to 30 s) until `found` holds for the spans received so far. */
  waitFor(found: (spans: ReceivedSpan[]) => boolean): Promise<void>;
  close(): Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean; arrayValue?: { values?: AnyValue[] }; kvlistValue?: { values?: KeyValue[] } };
type KeyValue = { key: string; value: AnyValue };

const valueOf = (value: AnyValue): unknown => {
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  if (value.kvlistValue) return Object.fromEntries((value.kvlistValue.values ?? []).map((kv) => [kv.key, valueOf(kv.value)]));
  return value.stringValue ?? value.intValue ?? value.doubleValue ?? value.boolValue;
};
const flatten = (attributes: KeyValue[] | undefined) => Object.fromEntries((attributes ?? []).map((kv) => [kv.key, valueOf(kv.value)]));
const stringsIn = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : Array.isArray(value) ? value.flatMap(stringsIn) : value && typeof value === 'object' ? Object.values(value).flatMap(stringsIn) : [];

/** Starts the receiver on a free loopback port; it answers every export with 200. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        for (const resourceSpans of JSON.parse(body).resourceSpans ?? []) {
          const service = String(flatten(resourceSpans.resource?.attributes)['service.name']);
          for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
            for (const span of scopeSpans.spans ?? []) {
              const attributes = flatten(span.attributes);
              const events = (span.events ?? []).map((event: { name: string; attributes?: KeyValue[] }) => ({ name: event.name, attributes: flatten(event.attributes) }));
              spans.push({
                service,
                scope: scopeSpans.scope?.name ?? '',
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? '',
                name: span.name,
                kind: span.kind,
                attributes,
                strings: [span.name, ...stringsIn(attributes), ...stringsIn(events), ...stringsIn(span.status?.message)],
              });
            }
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    async waitFor(found) {
      await eventually(() => found(spans), { timeoutMs: 30_000, intervalMs: 100 }).catch(() => {
        throw new Error(`the expected spans did not arrive; received:\n${spans.map((s) => `${s.service} ${s.traceId} ${s.name}`).join('\n')}`);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
