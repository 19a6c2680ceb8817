import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { RPCType, setRPCMetadata, suppressTracing, type RPCMetadata } from '@opentelemetry/core';

/** Probes and scrapes: a trace each would bury the requests' traces (and the readiness probe's SQL with them). */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'CONNECT', 'TRACE']);

const tracer = trace.getTracer('healthcare-practice-platform');

// Set by the SDK when it starts (sdk.ts): a process that does not trace serves its requests unwrapped.
let enabled = false;

/** Called by the SDK as it starts: servers created from now on wrap their requests in server spans. */
export function enableServerSpans(): void {
  enabled = true;
}

/** `host[:port]` of the Host header, split; an IPv6 literal keeps its brackets off. */
function hostAndPort(host: string | undefined): { address?: string; port?: number } {
  if (!host) return {};
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host);
  if (!match) return {};
  return { address: match[1].replace(/^\[|\]$/g, ''), port: match[2] ? Number(match[2]) : undefined };
}

/** What a recorded server span says about its request: never its path, query string or headers but the user agent (docs/tracing.md). */
function requestAttributes(req: IncomingMessage, method: string): Record<string, string | number | undefined> {
  const { address, port } = hostAndPort(req.headers.host);
  return {
    'http.request.method': method,
    'url.scheme': 'http',
    'server.address': address,
    'server.port': port,
    'network.peer.address': req.socket.remoteAddress,
    'network.peer.port': req.socket.remotePort,
    'client.address': req.socket.remoteAddress,
    'network.protocol.version': req.httpVersion,
    'user_agent.original': req.headers['user-agent'],
  };
}

/** Ends a recorded server span when its response closes: status, route template (http-route.ts), name. */
function endWith(span: Span, method: string, res: ServerResponse, metadata: RPCMetadata): void {
  const route = metadata.type === RPCType.HTTP ? metadata.route : undefined;
  span.setAttribute('http.response.status_code', res.statusCode);
  if (route) {
    span.setAttribute('http.route', route);
    span.updateName(`${method} ${route}`);
  }
  // A server span is in error for a 5xx only: a 4xx is the client's (OpenTelemetry's HTTP conventions).
  if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/**
 * Wraps a server's request listener in the request's server span: the caller's `traceparent`
 * joined, the span active while the request is handled, ended when the response closes.
 *
 * In place of the http instrumentation's server side, which computes a request's attributes,
 * binds its request and response emitters to the context and listens for the response's end on
 * every request, before and whatever the sampler decides: that was most of what tracing cost a
 * request that is not sampled (bench/RESULTS.md, tracing). Here an unsampled request costs the
 * span's start (its trace id, for log lines and the `traceparent` passed on) and one context;
 * its attributes and its end are a recorded span's alone. Listeners the handlers add run in the
 * request's context through Node's async context (express, body-parser and on-finished keep it).
 */
export function withServerSpans(listener: RequestListener): RequestListener {
  if (!enabled) return listener;
  return (req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (UNTRACED_PATHS.has(path)) return void context.with(suppressTracing(context.active()), () => listener(req, res));
    const method = req.method && METHODS.has(req.method) ? req.method : '_OTHER';
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer.startSpan(method, { kind: SpanKind.SERVER }, parent);
    const metadata: RPCMetadata = { type: RPCType.HTTP, span };
    if (span.isRecording()) {
      span.setAttributes(requestAttributes(req, method));
      res.once('close', () => endWith(span, method, res, metadata));
    }
    context.with(setRPCMetadata(trace.setSpan(parent, span), metadata), () => listener(req, res));
  };
}
