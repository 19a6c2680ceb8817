import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { BOUNDARY, type AbuseRequest, type BodySpec, type Expectation } from './abuse-http';
import { holdsRefusedText, refusedText, replaceAt, validish, wrongValue, type JsonSchema, type Operation } from './abuse-openapi';

/** A generated request and what it must get. */
export interface AbuseCase {
  req: AbuseRequest;
  expect: Expectation;
}

/** What a category needs to build requests for one operation. */
export interface CaseContext {
  doc: any;
  op: Operation;
  /** The fresh tenant's TENANT and API-KEY. */
  auth: Record<string, string>;
  /** Another tenant's headers, for mixed-up credentials. */
  otherAuth: Record<string, string>;
  /** The tenant's own ids by parameter name, so body checks reach a real resource (not a 404 first). */
  ownIds: Record<string, string>;
}

/** Generated cases of one category for one operation: random ones and fixed examples run first. */
export interface CategoryCases {
  arb: fc.Arbitrary<AbuseCase>;
  examples: AbuseCase[];
}

/** Path parameter values as they go on the wire: unknown ids, traversal, NUL, bad percent-encodings, huge. */
const RAW_PATH_VALUES = ['%00', 'a%00b', '..', '%2e%2e', '..%2F..%2Fopenapi.json', '%2F', '%ED%A0%80', '%FF', '%', '%ZZ', 'null', 'undefined', '0', '-1', '1e999', '%20', 'x'.repeat(5000), "'%20OR%201%3D1--", '%F0%9F%98%80'];
const pathValue = (): fc.Arbitrary<string> =>
  fc.oneof(fc.uuid().map(String), fc.constantFrom(...RAW_PATH_VALUES), fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }).map(encodeURIComponent));

/** A plausible value for a query parameter, by its name where the schema says only "string". */
function queryValue(doc: any, name: string, schema: JsonSchema): fc.Arbitrary<string[]> {
  if (name === 'timezone') return fc.constantFrom(['UTC'], ['America/New_York']);
  if (/date$/.test(name)) return fc.constantFrom(['2026-01-01'], ['2025-12-31']);
  if (/_ids?$/.test(name)) return fc.uuid().map((id) => [id]);
  return validish(doc, schema).map((v) => (Array.isArray(v) ? v.map(String) : v === null || v === undefined ? [] : [String(v)]));
}

/** The operation's path with `values` (already encoded) in place of its parameters. */
export function fillPath(op: Operation, values: Record<string, string>): string {
  return op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => values[name] ?? '00000000-0000-4000-8000-000000000000');
}

/** The path filled with the tenant's own ids, and its required `patient_id`-like query parameters too. */
function ownPath(ctx: CaseContext): string {
  const ids = Object.fromEntries(Object.entries(ctx.ownIds).map(([k, v]) => [k, encodeURIComponent(v)]));
  const query = ctx.op.queryParams.filter((p) => p.required && ids[p.name]).map((p) => [p.name, ids[p.name]] as [string, string]);
  return withQuery(fillPath(ctx.op, ids), query);
}

const encode = (pairs: [string, string][]) => pairs.map(([k, v]) => `${k}=${v}`).join('&');
const withQuery = (path: string, pairs: [string, string][]) => (pairs.length ? `${path}?${encode(pairs)}` : path);

/** Required query parameters with plausible values (encoded pairs). */
function baseQuery(ctx: CaseContext): fc.Arbitrary<[string, string][]> {
  const required = ctx.op.queryParams.filter((p) => p.required);
  return fc.tuple(...required.map((p) => queryValue(ctx.doc, p.name, p.schema).map((vs) => vs.map((v) => [p.name, encodeURIComponent(v)] as [string, string])))).map((lists) => lists.flat());
}

/** The operation's example body, or a generated one that fits its schema. */
function baseBody(ctx: CaseContext): fc.Arbitrary<unknown> {
  if (!ctx.op.bodySchema) return fc.constant(undefined);
  return ctx.op.bodyExample !== undefined ? fc.constant(ctx.op.bodyExample) : validish(ctx.doc, ctx.op.bodySchema);
}

const jsonHeaders = (ctx: CaseContext, extra: Record<string, string> = {}) => ({ ...ctx.auth, 'content-type': 'application/json', ...extra });
const jsonBody = (ctx: CaseContext, value: unknown): BodySpec => (ctx.op.bodyTypes.includes('application/json') ? { kind: 'json', value } : { kind: 'none' });
const headersFor = (ctx: CaseContext) => (ctx.op.bodyTypes.includes('application/json') ? jsonHeaders(ctx) : { ...ctx.auth });
const successTypes = (ctx: CaseContext) => ctx.op.successTypes.filter((t) => t !== 'application/json');

/** Path parameters: anything but one of the tenant's own ids names nothing, so nothing succeeds. */
export function pathCases(ctx: CaseContext): CategoryCases | null {
  const { op } = ctx;
  if (op.pathParams.length === 0) return null;
  const build = (values: Record<string, string>, query: [string, string][], body: unknown): AbuseCase => ({
    req: { method: op.method, path: withQuery(fillPath(op, values), query), headers: headersFor(ctx), body: jsonBody(ctx, body) },
    expect: { refuse: 'the path names no resource of this tenant', successTypes: successTypes(ctx) },
  });
  const record = fc.record(Object.fromEntries(op.pathParams.map((name) => [name, pathValue()])));
  const examples = ['%00', '%ED%A0%80', '..', 'x'.repeat(5000)].map((raw) => build(Object.fromEntries(op.pathParams.map((n) => [n, raw])), [], op.bodyExample));
  return { arb: fc.tuple(record, baseQuery(ctx), baseBody(ctx)).map(([values, query, body]) => build(values, query, body)), examples };
}

/** One query mutation: which parameter, and what it becomes on the wire. */
type QueryMutation = { kind: 'value'; raw: string } | { kind: 'repeat'; times: number } | { kind: 'huge'; length: number } | { kind: 'bracket' };

const queryMutation = (): fc.Arbitrary<QueryMutation> =>
  fc.oneof(
    fc.constantFrom('abc', '-1', '0', '1e400', '99999999999999999999', '', 'null', 'true', '%00', 'a%00b', '%ED%A0%80', '%uD800', '%FF', '%', "'%3B--").map((raw) => ({ kind: 'value' as const, raw })),
    fc.constantFrom(2, 50, 10_000).map((times) => ({ kind: 'repeat' as const, times })),
    fc.constantFrom(2_000, 9_000, 20_000, 70_000).map((length) => ({ kind: 'huge' as const, length })),
    fc.constant({ kind: 'bracket' as const }),
  );

/** Query parameters from the operation's schemas, then one mutated: wrong types, NUL, bad encodings, repeated, huge. */
export function queryCases(ctx: CaseContext): CategoryCases | null {
  const { op } = ctx;
  if (op.queryParams.length === 0) return null;
  const names = op.queryParams.map((p) => p.name);
  const build = (query: [string, string][], name: string, mutation: QueryMutation, body: unknown): AbuseCase => {
    const rest = query.filter(([k]) => k !== name);
    const original = query.find(([k]) => k === name)?.[1] ?? '1';
    const mutated: [string, string][] =
      mutation.kind === 'value' ? [[name, mutation.raw]]
      : mutation.kind === 'repeat' ? Array.from({ length: mutation.times }, () => [name, original] as [string, string])
      : mutation.kind === 'huge' ? [[name, 'a'.repeat(mutation.length)]]
      : [[`${name}[]`, original], [`${name}[a]`, original]];
    const nul = mutation.kind === 'value' && mutation.raw.includes('%00');
    return {
      req: { method: op.method, path: withQuery(fillPath(op, {}), [...rest, ...mutated]), headers: headersFor(ctx), body: jsonBody(ctx, body) },
      expect: { refuse: nul ? `query parameter ${name} holds NUL` : undefined, successTypes: successTypes(ctx) },
    };
  };
  const text = op.queryParams.find((p) => [p.schema.type].flat().includes('string') && !p.schema.enum)?.name ?? names[0];
  const fixed: [string, string][] = op.queryParams
    .filter((p) => p.required)
    .map((p) => [p.name, p.name === 'timezone' ? 'UTC' : p.schema.enum ? String(p.schema.enum[0]) : p.name.endsWith('_id') ? (ctx.ownIds[p.name] ?? '00000000-0000-4000-8000-000000000000') : 'x']);
  const examples = [
    build(fixed, text, { kind: 'value', raw: 'a%00b' }, op.bodyExample),
    build(fixed, names[0], { kind: 'repeat', times: 10_000 }, op.bodyExample),
    build(fixed, names[0], { kind: 'huge', length: 20_000 }, op.bodyExample),
  ];
  const arb = fc.tuple(baseQuery(ctx), fc.constantFrom(...names), queryMutation(), baseBody(ctx)).map(([q, n, m, b]) => build(q, n, m, b));
  return { arb, examples };
}

/** A body mutation, kept small so a failing case prints in a line. */
const bodyMutation = (): fc.Arbitrary<{ kind: string; pick: number; value?: unknown }> =>
  fc.oneof(
    fc.record({ kind: fc.constant('wrong-type'), pick: fc.nat(50), value: wrongValue() }),
    fc.record({ kind: fc.constant('bad-text'), pick: fc.nat(50), value: refusedText() }),
    fc.record({ kind: fc.constant('nested'), pick: fc.nat(50), value: fc.constantFrom(8, 64).map((n) => JSON.parse('['.repeat(n) + ']'.repeat(n))) }),
    fc.record({ kind: fc.constantFrom('whole-null', 'whole-array', 'whole-string', 'whole-number'), pick: fc.constant(0) }),
    fc.record({ kind: fc.constantFrom('deep-array', 'deep-object'), pick: fc.constantFrom(100, 1_000, 5_001, 10_000) }),
    fc.record({ kind: fc.constantFrom('huge-ascii', 'huge-unicode', 'huge-nul'), pick: fc.constantFrom(70_000, 300_000, 1_100_000) }),
    fc.record({ kind: fc.constantFrom('malformed', 'bytes'), pick: fc.nat(MALFORMED.length + BAD_BYTES.length) }),
  );

const MALFORMED = ['{', '{"a":}', "{'a':1}", '[1,]', 'NaN', '{"a":1}{"b":2}', '{"a":"\\x00"}', '{"a":"\\ud800', '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}', '\ufeff{}', ' '];
const BAD_BYTES = ['fffe7b7d', '7b2261223a22ff227d', '7b2261223a22eda080227d', 'c0af', '00'];

/** The first string property of a body schema, or a made-up field. */
const stringField = (schema: JsonSchema | null): string =>
  Object.entries<any>(schema?.properties ?? {}).find(([, s]) => [s.type].flat().includes('string'))?.[0] ?? 'padding';

/** JSON bodies from the requestBody schema, then mutated: wrong types, null, NUL and surrogates, nesting, huge, malformed. */
export function bodyCases(ctx: CaseContext): CategoryCases | null {
  const { op } = ctx;
  if (!op.bodyTypes.includes('application/json')) return null;
  const field = stringField(op.bodySchema);
  const build = (base: unknown, m: { kind: string; pick: number; value?: unknown }): AbuseCase => {
    let body: BodySpec;
    let refuse: string | undefined;
    const extraKey = `extra_${m.pick}`;
    if (m.kind === 'wrong-type' || m.kind === 'bad-text' || m.kind === 'nested') {
      const value = replaceAt(base, m.pick, m.value, extraKey);
      body = { kind: 'json', value };
      if (holdsRefusedText(value)) refuse = 'the body holds NUL or an unpaired surrogate';
      else if (value === null || typeof value !== 'object' || Array.isArray(value)) refuse = 'the body is not a JSON object';
    } else if (m.kind.startsWith('whole-')) {
      body = { kind: 'json', value: { 'whole-null': null, 'whole-array': [], 'whole-string': 'x', 'whole-number': 1 }[m.kind] };
      refuse = 'the body is not a JSON object';
    } else if (m.kind.startsWith('deep-')) {
      body = { kind: 'deep', depth: m.pick, shape: m.kind === 'deep-array' ? 'array' : 'object' };
      refuse = 'the body is not an object of the schema';
    } else if (m.kind.startsWith('huge-')) {
      const char = { 'huge-ascii': 'a', 'huge-unicode': 'é', 'huge-nul': '\u0000' }[m.kind]!;
      body = { kind: 'huge', base: (base && typeof base === 'object' ? base : {}) as Record<string, unknown>, field, length: m.pick, char };
      if (char === '\u0000' || m.pick > 1_000_000) refuse = char === '\u0000' ? 'the body holds NUL' : 'the body is over the limit';
    } else if (m.pick < MALFORMED.length) {
      body = { kind: 'text', text: MALFORMED[m.pick] };
      if (!MALFORMED[m.pick].includes('__proto__') && MALFORMED[m.pick] !== '\ufeff{}') refuse = 'the body is not valid JSON';
    } else {
      body = { kind: 'bytes', hex: BAD_BYTES[(m.pick - MALFORMED.length) % BAD_BYTES.length] };
      refuse = 'the body is not valid UTF-8 JSON';
    }
    if (refuse && !op.bodyRequired && !refuse.includes('NUL')) refuse = undefined;
    return { req: { method: op.method, path: ownPath(ctx), headers: jsonHeaders(ctx), body }, expect: { refuse, successTypes: successTypes(ctx) } };
  };
  const base = (op.bodyExample ?? {}) as Record<string, unknown>;
  const examples = [
    build({ ...base, [field]: 'a\u0000b' }, { kind: 'wrong-type', pick: 0, value: undefined }),
    build({ ...base, [field]: 'a\ud800b' }, { kind: 'wrong-type', pick: 0, value: undefined }),
    build(base, { kind: 'huge-nul', pick: 70_000 }),
    build(base, { kind: 'whole-null', pick: 0 }),
    build(base, { kind: 'deep-array', pick: 10_000 }),
    build(base, { kind: 'deep-object', pick: 5_001 }),
    build(base, { kind: 'huge-unicode', pick: 300_000 }),
  ];
  return { arb: fc.tuple(baseBody(ctx), bodyMutation()).map(([b, m]) => build(b, m)), examples };
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON'];
const OTHER_TYPES = ['', 'text/plain', 'application/x-www-form-urlencoded', `multipart/form-data; boundary=${BOUNDARY}`, 'application/xml', 'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/json; charset=koi8-r', 'application/jsonx', 'application/*', 'text/json', 'application/json, text/plain'];

/** A JSON route's valid body under another media type: a route that needs a JSON body refuses it. */
export function contentTypeCases(ctx: CaseContext): CategoryCases | null {
  const { op } = ctx;
  if (!op.bodyTypes.includes('application/json')) return null;
  const build = (type: string, base: unknown): AbuseCase => {
    const headers: Record<string, string> = { ...ctx.auth };
    if (type) headers['content-type'] = type;
    const text = type.startsWith('application/x-www-form') ? `json=${encodeURIComponent(JSON.stringify(base))}` : JSON.stringify(base ?? {});
    // Dropping a body sent under another media type and answering 2xx tells the caller its change was made.
    // No content type at all is read as JSON, as FastAPI does, so a 2xx there applied the body.
    const refuse = type !== '' && !JSON_TYPES.includes(type) ? `the route takes application/json, got "${type || 'no content type'}" (the body would be ignored)` : undefined;
    return { req: { method: op.method, path: ownPath(ctx), headers, body: type ? { kind: 'text', text } : { kind: 'bytes', hex: Buffer.from(text).toString('hex') } }, expect: { refuse, successTypes: successTypes(ctx) } };
  };
  const examples = ['text/plain', 'application/x-www-form-urlencoded', 'text/json', ''].map((type) => build(type, op.bodyExample ?? {}));
  return { arb: fc.tuple(fc.constantFrom(...OTHER_TYPES, ...JSON_TYPES), baseBody(ctx)).map(([t, b]) => build(t, b)), examples };
}

/** A compressed 64 MiB of spaces: inflating it must stop at the body limit. */
const GZIP_BOMB = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)).toString('hex');

/** Plain bytes under a false Content-Encoding, unknown encodings, and a gzip bomb. */
export function encodingCases(ctx: CaseContext): CategoryCases | null {
  const { op } = ctx;
  if (!op.bodyTypes.includes('application/json')) return null;
  const build = (encoding: string, base: unknown): AbuseCase => {
    const body: BodySpec = encoding === 'gzip (bomb)' ? { kind: 'bytes', hex: GZIP_BOMB } : { kind: 'json', value: base ?? {} };
    const header = encoding === 'gzip (bomb)' ? 'gzip' : encoding;
    return {
      req: { method: op.method, path: ownPath(ctx), headers: jsonHeaders(ctx, { 'content-encoding': header }), body },
      expect: { refuse: encoding === 'identity' ? undefined : `the body is not ${encoding}-encoded as its header says`, successTypes: successTypes(ctx) },
    };
  };
  const encodings = ['gzip', 'deflate', 'br', 'gzip, gzip', 'compress', 'x-unknown', 'identity', 'gzip (bomb)'];
  return { arb: fc.tuple(fc.constantFrom(...encodings), baseBody(ctx)).map(([e, b]) => build(e, b)), examples: ['gzip', 'deflate', 'br', 'gzip (bomb)'].map((e) => build(e, op.bodyExample)) };
}

const MAGIC: Record<string, string> = { png: '89504e470d0a1a0a', jpeg: 'ffd8ffe0', gif: '474946383961', webp: '52494646000000005745425056503820', svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">').toString('hex') };
const TWO_MIB = 2 * 1024 * 1024;

/** Uploads: wrong media types, broken multipart, files that only start like an image, files over the cap. */
export function uploadCases(ctx: CaseContext): CategoryCases | null {
  const { op } = ctx;
  if (!op.bodyTypes.includes('multipart/form-data')) return null;
  const multipart = `multipart/form-data; boundary=${BOUNDARY}`;
  const build = (kind: string, length: number, fill: number, type = multipart, field = 'file'): AbuseCase => ({
    req: {
      method: op.method,
      path: ownPath(ctx),
      headers: { ...ctx.auth, 'content-type': type },
      body: { kind: 'multipart', field, filename: `logo.${kind}`, fileType: `image/${kind}`, prefixHex: MAGIC[kind], fillByte: fill, fillLength: Math.max(0, length - MAGIC[kind].length / 2) },
    },
    expect: { refuse: `the file is not a decodable image (${kind} signature + ${length} bytes of 0x${fill.toString(16)})${type === multipart ? '' : ` or not multipart (${type})`}` },
  });
  const examples = [build('png', TWO_MIB - 64, 0), build('jpeg', 4096, 0xff), build('gif', TWO_MIB + 1, 0)];
  const arb = fc
    .tuple(fc.constantFrom(...Object.keys(MAGIC)), fc.constantFrom(16, 4096, 300_000, TWO_MIB - 64, TWO_MIB + 1), fc.constantFrom(0, 0xff, 0x41), fc.constantFrom(multipart, 'multipart/form-data', 'multipart/form-data; boundary=other', 'application/json', 'text/plain'), fc.constantFrom('file', 'logo'))
    // Big files only as multipart: a server may answer a body it will not read early and close (EPIPE here).
    .map(([kind, length, fill, type, field]) => build(kind, type.startsWith('multipart/form-data;') ? length : 16, fill, type, field));
  return { arb, examples };
}

/** Credentials missing, wrong, mixed between tenants, oversized or not ASCII: never a success. */
export function authCases(ctx: CaseContext): CategoryCases | null {
  const { op } = ctx;
  if (op.public) return null;
  const variants: Record<string, Record<string, string>> = {
    none: {},
    'tenant only': { TENANT: ctx.auth.TENANT },
    'wrong key': { TENANT: ctx.auth.TENANT, 'API-KEY': 'hpp_' + 'x'.repeat(60) },
    "other tenant's key": { TENANT: ctx.auth.TENANT, 'API-KEY': ctx.otherAuth['API-KEY'] },
    "other tenant's id": { TENANT: ctx.otherAuth.TENANT, 'API-KEY': ctx.auth['API-KEY'] },
    'huge key': { TENANT: ctx.auth.TENANT, 'API-KEY': 'k'.repeat(8_000) },
    'latin-1 key': { TENANT: ctx.auth.TENANT, 'API-KEY': 'clé-éèà' },
    'two keys': { TENANT: ctx.auth.TENANT, 'API-KEY': `${ctx.auth['API-KEY']}, ${ctx.otherAuth['API-KEY']}` },
    'tenant not a uuid': { TENANT: "' or 1=1 --", 'API-KEY': ctx.auth['API-KEY'] },
  };
  const build = (name: string, body: unknown): AbuseCase => {
    const headers = { ...variants[name], ...(op.bodyTypes.includes('application/json') ? { 'content-type': 'application/json' } : {}) };
    return { req: { method: op.method, path: fillPath(op, {}), headers, body: jsonBody(ctx, body) }, expect: { refuse: `credentials are ${name}` } };
  };
  return { arb: fc.tuple(fc.constantFrom(...Object.keys(variants)), baseBody(ctx)).map(([n, b]) => build(n, b)), examples: [build('latin-1 key', ctx.op.bodyExample)] };
}
