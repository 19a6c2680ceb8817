import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local OTLP/HTTP (JSON) trace receiver for load: counts the spans it gets and answers 200 at once. */
export interface OtlpSink {
  /** The value for OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  spans(): number;
  close(): Promise<void>;
}

// Each span carries one "spanId" key (its parent's is "parentSpanId"): counting them is enough, and cheaper than parsing.
const SPAN_ID = /"spanId":/g;

/** Starts the sink on 127.0.0.1. Its CPU is the benchmark process's, not the server's. */
export async function startOtlpSink(): Promise<OtlpSink> {
  let spans = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      spans += body.match(SPAN_ID)?.length ?? 0;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => spans,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
