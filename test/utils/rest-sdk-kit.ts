import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** One operation of the OpenAPI document: `GET /tenant/public`, with its object. */
export interface DocOperation {
  key: string;
  method: string;
  path: string;
  op: any;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every operation of the document's paths, as `METHOD /path` keys. */
export function documentOperations(doc: any): DocOperation[] {
  return Object.entries(doc.paths as Record<string, any>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ key: `${method.toUpperCase()} ${path}`, method, path, op: item[method] })),
  );
}

/** The status an operation answers a valid request with: its 2xx, or the only status of one that never succeeds (a 405). */
export function successStatus(op: any): number {
  const statuses = Object.keys(op.responses);
  return Number(statuses.find((s) => /^2\d\d$/.test(s)) ?? statuses[0]);
}

/** Validates values against the document's schemas (JSON Schema 2020-12, OpenAPI 3.1's dialect), `#/components/...` references resolved. */
export class DocumentValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });

  constructor(private readonly doc: any) {
    addFormats(this.ajv);
    this.ajv.addFormat('binary', true);
  }

  /** The validation errors of `value` against `schema`, empty when it fits. */
  errors(schema: unknown, value: unknown): string[] {
    // A root of its own that carries the components, so the schema's `#/components/...` references resolve.
    const validate = this.ajv.compile({ ...(schema as object), components: this.doc.components });
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  }

  /** Whether `schema` (a property's) admits null. */
  allowsNull(schema: unknown): boolean {
    return this.errors(schema, null).length === 0;
  }
}

/** The documented media type a response's Content-Type falls under (`image/*` covers `image/png`), or undefined. */
export function documentedMedia(content: Record<string, any> | undefined, contentType: string | null): [string, any] | undefined {
  if (!content || !contentType) return undefined;
  const type = contentType.split(';')[0].trim().toLowerCase();
  return Object.entries(content).find(([range]) => range === type || (range.endsWith('/*') && type.startsWith(range.slice(0, -1))));
}

/**
 * What is wrong with a response against the operation's document: an undocumented status, a
 * Content-Type the status does not list, or a body its schema does not admit (for an event stream,
 * each `data:` line against `x-event-schema`). Empty when it conforms. A HEAD's answer has no body to check.
 */
export function responseProblems(validator: DocumentValidator, op: any, response: Response, body: unknown, head = false): string[] {
  const documented = op.responses[String(response.status)];
  if (!documented) return [`status ${response.status} is not documented`];
  if (!documented.content) return body === undefined || body === '' || body === null ? [] : [`status ${response.status} documents no body`];
  const media = documentedMedia(documented.content, response.headers.get('content-type'));
  if (!media) return [`Content-Type ${response.headers.get('content-type')} is not documented for ${response.status}`];
  if (head) return [];
  const [type, { schema, 'x-event-schema': eventSchema }] = media;
  if (type === 'text/event-stream') {
    const events = String(body).split('\n').filter((line) => line.startsWith('data:')).map((line) => JSON.parse(line.slice(5)));
    if (!events.length) return ['the stream sent no event'];
    return events.flatMap((event) => validator.errors(eventSchema, event));
  }
  if (schema?.format === 'binary') return body instanceof Blob && body.size > 0 ? [] : ['expected a non-empty binary body'];
  return validator.errors(schema, body);
}
