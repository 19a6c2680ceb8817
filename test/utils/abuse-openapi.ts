import fc from 'fast-check';

/** A JSON Schema node as /openapi.json writes it (3.1: `type` may be a list). */
export type JsonSchema = Record<string, any>;

/** One REST operation of the OpenAPI document, with what the generators need. */
export interface Operation {
  method: string;
  path: string;
  operationId: string;
  pathParams: string[];
  queryParams: { name: string; required: boolean; schema: JsonSchema }[];
  /** The media types of the request body (empty: no body). */
  bodyTypes: string[];
  bodyRequired: boolean;
  bodySchema: JsonSchema | null;
  bodyExample: unknown;
  /** Whether the operation names no security (public routes: lead webhook, assets). */
  public: boolean;
  /** Media types of its 2xx answers. */
  successTypes: string[];
}

/** Every operation of an OpenAPI 3.1 document, `$ref`s of request bodies resolved. */
export function operationsOf(doc: any): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'put', 'post', 'delete', 'patch'].includes(method)) continue;
      const params: any[] = [...(item.parameters ?? []), ...(op.parameters ?? [])];
      const json = op.requestBody?.content?.['application/json'];
      const successTypes = Object.entries<any>(op.responses ?? {})
        .filter(([status]) => status.startsWith('2'))
        .flatMap(([, r]) => Object.keys(r.content ?? {}));
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId ?? `${method} ${path}`,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, required: !!p.required, schema: resolve(doc, p.schema ?? {}) })),
        bodyTypes: Object.keys(op.requestBody?.content ?? {}),
        bodyRequired: !!op.requestBody?.required,
        bodySchema: json?.schema ? resolve(doc, json.schema) : null,
        bodyExample: json?.example ?? json?.examples?.[Object.keys(json.examples)[0]]?.value,
        public: Array.isArray(op.security) && op.security.length === 0,
        successTypes,
      });
    }
  }
  return operations;
}

/** A schema with its `$ref` replaced by the component it names (one level; callers resolve as they descend). */
export function resolve(doc: any, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; current?.$ref && hops < 20; hops++) {
    const parts = String(current.$ref).replace(/^#\//, '').split('/');
    current = parts.reduce((node: any, key) => node?.[key], doc) ?? {};
  }
  return current ?? {};
}

const types = (schema: JsonSchema): string[] => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);

/** A value that fits `schema` (roughly: formats and bounds are ignored), as the base a mutation starts from. */
export function validish(doc: any, schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(doc, schema);
  const alternatives = s.oneOf ?? s.anyOf;
  if (alternatives) return fc.oneof(...alternatives.map((alt: JsonSchema) => validish(doc, alt, depth)));
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.const !== undefined) return fc.constant(s.const);
  const kinds = types(s).filter((t) => t !== 'null');
  const kind = kinds[0] ?? (s.properties ? 'object' : 'any');
  switch (kind) {
    case 'string':
      return s.format === 'uuid' ? fc.uuid() : fc.string({ minLength: 1, maxLength: 12 });
    case 'integer':
      return fc.integer({ min: s.minimum ?? 0, max: s.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: 0, max: 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return depth > 4 ? fc.constant([]) : fc.array(validish(doc, s.items ?? {}, depth + 1), { maxLength: 3 });
    case 'object': {
      if (depth > 4 || !s.properties) return fc.constant({});
      const keys = Object.keys(s.properties);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const key of keys) record[key] = validish(doc, s.properties[key], depth + 1);
      return fc.record(record, { requiredKeys: (s.required ?? []).filter((k: string) => keys.includes(k)) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Strings the text rule refuses, and other hostile text. */
export const BAD_TEXT = {
  nul: ['\u0000', 'a\u0000b', 'Ada\u0000Lovelace'],
  surrogate: ['\ud800', 'x\udfff', 'a\ud83d', '\udc00\ud800'],
};

/** Text that must be refused wherever it is a string of a body or query (NUL, unpaired surrogates). */
export const refusedText = (): fc.Arbitrary<string> =>
  fc.oneof(fc.constantFrom(...BAD_TEXT.nul, ...BAD_TEXT.surrogate), fc.tuple(fc.string(), fc.constantFrom('\u0000', '\ud800', '\udfff'), fc.string()).map(([a, b, c]) => a + b + c));

/** Whether a JSON value holds, anywhere (keys too), a string the text rule refuses. */
export function holdsRefusedText(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string' && (item.includes('\u0000') || /\p{Cs}/u.test(item))) return true;
    if (item && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        if (key.includes('\u0000') || /\p{Cs}/u.test(key)) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

/** A value of the wrong kind for anything: the types JSON has, nested containers, odd numbers. */
export const wrongValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.constantFrom(null, true, false, 0, -1, 1e308, -0.5, 2 ** 53 + 1, '', ' ', 'false', '1', '12', 'null', '[]', '{}', [], {}, [[[]]], { $gt: '' }, JSON.parse(`{"__proto__": {"polluted": true}}`)),
    fc.string({ maxLength: 30, unit: 'binary' }),
    fc.integer(),
    fc.jsonValue({ maxDepth: 3 }),
  );

/** `value` with one place (chosen by `pick`) replaced by `replacement`, or a field added when there is no place. */
export function replaceAt(value: unknown, pick: number, replacement: unknown, extraKey: string): unknown {
  const places: (string | number)[][] = [];
  const walk = (node: unknown, path: (string | number)[]) => {
    places.push(path);
    if (path.length > 4 || !node || typeof node !== 'object') return;
    for (const [key, child] of Object.entries(node)) walk(child, [...path, Array.isArray(node) ? Number(key) : key]);
  };
  walk(value, []);
  const path = places[pick % places.length];
  if (path.length === 0) {
    return value && typeof value === 'object' && !Array.isArray(value) && pick % 2 === 0 ? { ...value, [extraKey]: replacement } : replacement;
  }
  const copy = structuredClone(value) as any;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key];
  node[path[path.length - 1]] = replacement;
  return copy;
}
