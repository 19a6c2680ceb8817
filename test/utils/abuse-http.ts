import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** How long one abuse request may take before it counts as a hang (the suite must never wait on a dead server). */
export const REQUEST_TIMEOUT_MS = Number(process.env.ABUSE_REQUEST_TIMEOUT_MS ?? 10_000);

/** A request body, described small so a failure message can print it; `materialize` builds the bytes. */
export type BodySpec =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; hex: string }
  /** `depth` nested arrays or objects around `1`, built as text (no recursion on either side of the wire). */
  | { kind: 'deep'; depth: number; shape: 'array' | 'object' }
  /** `base` with the string field `field` replaced by `length` times `char`. */
  | { kind: 'huge'; base: Record<string, unknown>; field: string; length: number; char: string }
  /** A multipart/form-data body (its boundary is set in the content type by the sender). */
  | { kind: 'multipart'; field: string; filename: string; fileType: string; prefixHex: string; fillByte: number; fillLength: number };

/** One generated request: everything needed to send it again by hand. */
export interface AbuseRequest {
  method: string;
  /** Path with its query string, already percent-encoded as it goes on the wire. */
  path: string;
  headers: Record<string, string>;
  body: BodySpec;
}

/** The multipart boundary of BodySpec `multipart`. */
export const BOUNDARY = 'abuse-boundary-7f3a';

/** The bytes of a body spec (strings are UTF-8; lone surrogates only ever travel JSON-escaped). */
export function materialize(body: BodySpec): Uint8Array | undefined {
  switch (body.kind) {
    case 'none':
      return undefined;
    case 'json':
      return Buffer.from(JSON.stringify(body.value) ?? 'null');
    case 'text':
      return Buffer.from(body.text);
    case 'bytes':
      return Buffer.from(body.hex, 'hex');
    case 'deep': {
      const [open, close] = body.shape === 'array' ? ['[', ']'] : ['{"a":', '}'];
      return Buffer.from(open.repeat(body.depth) + '1' + close.repeat(body.depth));
    }
    case 'huge':
      return Buffer.from(JSON.stringify({ ...body.base, [body.field]: body.char.repeat(body.length) }));
    case 'multipart': {
      const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${body.field}"; filename="${body.filename}"\r\nContent-Type: ${body.fileType}\r\n\r\n`;
      const file = Buffer.concat([Buffer.from(body.prefixHex, 'hex'), Buffer.alloc(body.fillLength, body.fillByte)]);
      return Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
    }
  }
}

/** A value printed short: long strings as their head and length, so a 1 MiB case fits in a failure message. */
export function brief(value: unknown, max = 120): string {
  const text = JSON.stringify(value, (_key, v) => (typeof v === 'string' && v.length > 40 ? `${v.slice(0, 24)}…(${v.length} chars)` : v)) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text;
}

/** A request as one line a person can replay with curl. */
export function describeRequest(req: AbuseRequest): string {
  const path = req.path.length > 160 ? `${req.path.slice(0, 140)}…(${req.path.length} chars)` : req.path;
  const headers = Object.entries(req.headers)
    .filter(([name]) => !['tenant', 'api-key'].includes(name.toLowerCase()))
    .map(([name, value]) => `${name}: ${value.length > 80 ? `${value.slice(0, 60)}…(${value.length} chars)` : value}`)
    .join('; ');
  return `${req.method} ${path}${headers ? ` [${headers}]` : ''} body=${brief(req.body, 200)}`;
}

/** What came back, read whole. */
export interface AbuseResponse {
  status: number;
  contentType: string;
  text: string;
  json: unknown;
  isJson: boolean;
}

/** Sends one request with a deadline; a reset connection or a dead server becomes a clear error naming the request. */
export async function send(base: string, req: AbuseRequest, timeoutMs = REQUEST_TIMEOUT_MS): Promise<AbuseResponse> {
  const bytes = materialize(req.body);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no complete answer within ${timeoutMs} ms`)), timeoutMs);
  try {
    const response = await fetch(base + req.path, { method: req.method, headers: req.headers, body: bytes, signal: controller.signal, redirect: 'manual' });
    const contentType = response.headers.get('content-type') ?? '';
    if (response.status === 200 && contentType.startsWith('text/event-stream')) {
      // A stream that started is a success; leaving it cancels the generation.
      controller.abort();
      return { status: 200, contentType, text: '', json: null, isJson: false };
    }
    const text = await response.text();
    let json: unknown = undefined;
    let isJson = false;
    try {
      json = JSON.parse(text);
      isJson = true;
    } catch {
      // judged by the caller
    }
    return { status: response.status, contentType, text, json, isJson };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new Error(`no HTTP answer (${why}): the connection was reset, the request hung or the server is down\n  request: ${describeRequest(req)}`);
  } finally {
    clearTimeout(timer);
  }
}

const ROOT = resolve(__dirname, '../..');
/** Absolute paths that would betray a stack trace or the layout of the host. */
const LEAKY = [...new Set([ROOT, realpathSync(join(ROOT, 'node_modules')), '/node_modules/', '    at ', '&nbsp;at '])];

/** The first sign of a stack trace or of a path of the host in `text`, if any. */
export const leakIn = (text: string): string | undefined => LEAKY.find((needle) => text.includes(needle));

/** Whether a 4xx body has the contract's shape: `detail` a string or a list of `{type, loc, msg}`. */
export function isErrorShape(body: unknown): boolean {
  if (body === null || typeof body !== 'object' || !('detail' in body)) return false;
  const detail = (body as { detail: unknown }).detail;
  if (typeof detail === 'string') return true;
  return Array.isArray(detail) && detail.every((d) => d && typeof d.type === 'string' && Array.isArray(d.loc) && typeof d.msg === 'string');
}

/** What a generated request must get beyond the common rules. */
export interface Expectation {
  /** Why the contract cannot accept this request: then a 2xx is a failure. */
  refuse?: string;
  /** Content types a success may have besides JSON (the migration stream). */
  successTypes?: string[];
}

/**
 * The common rules for every abusive request: an answer below 500, a JSON body (on 2xx too, unless
 * `successTypes` says otherwise), the contract's error shape on 4xx, nothing that reads like a stack
 * trace or a path of the host; and no success when `refuse` says the request is not acceptable.
 */
export function problemsOf(res: AbuseResponse, expect: Expectation = {}): string[] {
  const problems: string[] = [];
  const streamed = res.status === 200 && (expect.successTypes ?? []).some((t) => res.contentType.startsWith(t));
  if (res.status >= 500) problems.push(`status ${res.status}`);
  if (res.status === 204) return problems;
  if (!streamed && !res.contentType.startsWith('application/json')) problems.push(`content-type "${res.contentType}"`);
  if (!streamed && !res.isJson) problems.push(`body is not JSON: ${brief(res.text, 100)}`);
  if (res.status >= 400 && res.status < 500 && res.isJson && !isErrorShape(res.json)) problems.push(`4xx body lacks the error shape: ${brief(res.json, 160)}`);
  const leak = leakIn(res.text);
  if (leak) problems.push(`body leaks "${leak.trim()}": ${brief(res.text.slice(Math.max(0, res.text.indexOf(leak) - 60)), 160)}`);
  if (expect.refuse && res.status >= 200 && res.status < 300) problems.push(`accepted (${res.status}) though ${expect.refuse}: ${brief(res.json ?? res.text, 120)}`);
  return problems;
}

/** Throws one concise line per problem, naming the request, so fast-check reports it with its seed. */
export function assertSafe(req: AbuseRequest, res: AbuseResponse, expect: Expectation = {}): void {
  const problems = problemsOf(res, expect);
  if (problems.length > 0) throw new Error(`${problems.join('; ')}\n  request: ${describeRequest(req)}`);
}
