import {
  DocumentNode,
  FragmentDefinitionNode,
  getNullableType,
  GraphQLInputType,
  GraphQLNonNull,
  GraphQLSchema,
  isInputType,
  isListType,
  isNonNullType,
  Kind,
  OperationDefinitionNode,
  parse,
  typeFromAST,
  valueFromASTUntyped,
  VariableDefinitionNode,
} from 'graphql';
import { restBodyType } from './body-rename';
import { restType } from './coerce';
import { inputTypeSchema, JsonSchema, notNull, objectSchema, parameterSchema, SchemaComponents } from './json-schema';
import { tagObjects } from './openapi-tags';
import { pageSchema, withPageVariable } from './page-list';
import { HttpMethod, RouteDefinition, UploadMapping } from './types';

/** A route as the document reads it: the bridge's definition, optionally with its success body's schema spelled out. */
export interface DocumentedRoute extends RouteDefinition {
  /** Replaces the schema derived from the operation, for a route whose `result` is not its first root field's value. */
  responseSchema?: JsonSchema;
  /** An example JSON request body, shown beside the body's schema. */
  requestExample?: unknown;
  /** An example success body, shown beside its schema. */
  responseExample?: unknown;
}

/** A media type object, with the route's example when it has one. */
function withExample(content: JsonSchema, example: unknown): JsonSchema {
  if (example === undefined) return content;
  const [[type, media]] = Object.entries(content);
  return { [type]: { ...(media as JsonSchema), example } };
}

/** The multipart/form-data body of an upload route: one binary file part. */
function uploadRequestBody(upload: UploadMapping): JsonSchema {
  const file = { type: 'string', format: 'binary', description: upload.description ?? `At most ${upload.maxBytes} bytes` };
  const schema = { type: 'object', properties: { [upload.field]: file }, required: [upload.field] };
  return { required: true, content: { 'multipart/form-data': { schema } } };
}

const DESCRIPTION = [
  'Every request carries the `TENANT` and `API-KEY` headers.',
  'Errors are JSON objects with a `detail` field: a message string, or for 422 a list of validation errors',
  '`{type, loc, msg, input, ctx}` whose `loc` starts with `query`, `path`, `header` or `body`.',
  'Every response, errors included, carries `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`',
  '(Unix epoch seconds), `RateLimit-Policy`, `RateLimit` and `X-Request-Id`; 429 and 503 add `Retry-After` (seconds).',
].join(' ');

/** Only the headers the document's responses refer to (no-unused-components): Deprecation and its kin only while a route is deprecated. */
function usedHeaders(paths: unknown): Record<string, JsonSchema> {
  const text = JSON.stringify(paths);
  return Object.fromEntries(Object.entries(HEADERS).filter(([name]) => text.includes(`"#/components/headers/${name}"`)));
}

const HEADERS: Record<string, JsonSchema> = {
  'X-RateLimit-Limit': { description: "Requests allowed in the tenant's current window.", schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When the window resets, in Unix epoch seconds.', schema: { type: 'integer' } },
  'RateLimit-Policy': { description: 'Quota policy (IETF draft-ietf-httpapi-ratelimit-headers).', schema: { type: 'string' } },
  RateLimit: { description: 'Remaining quota and reset (IETF draft-ietf-httpapi-ratelimit-headers).', schema: { type: 'string' } },
  'X-Request-Id': { description: 'Id of the request, as logged; a valid incoming one is echoed.', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
  Deprecation: { description: 'The route is deprecated since this date (RFC 9745: `@` and Unix epoch seconds).', schema: { type: 'string' } },
  Sunset: { description: 'The route may stop answering after this HTTP-date (RFC 8594).', schema: { type: 'string' } },
  Link: { description: 'Where the deprecation is explained: `<url>; rel="deprecation"` (RFC 9745).', schema: { type: 'string' } },
};

const ERROR_SCHEMAS: SchemaComponents = {
  ErrorDetail: {
    type: 'object',
    properties: { detail: { type: 'string' } },
    required: ['detail'],
  },
  ValidationErrorElement: {
    type: 'object',
    properties: {
      type: { type: 'string' },
      loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
      msg: { type: 'string' },
      input: {},
      ctx: { type: 'object' },
    },
    required: ['type', 'loc', 'msg'],
  },
  HTTPValidationError: {
    type: 'object',
    properties: { detail: { type: 'array', items: { $ref: '#/components/schemas/ValidationErrorElement' } } },
    required: ['detail'],
  },
};

// docs/decisions.md, Errors: one status per error code; 409 only where a write can meet the resource's state.
// `bodies`: only where a request body is read (its encoding, size and content type can be wrong).
const ERRORS: { status: number; description: string; schema: string; methods?: HttpMethod[]; bodies?: boolean }[] = [
  { status: 400, description: 'The body could not be read: a false `Content-Encoding`, or fewer bytes than `Content-Length`', schema: 'ErrorDetail', bodies: true },
  { status: 401, description: 'Invalid API key', schema: 'ErrorDetail' },
  { status: 403, description: 'API key does not belong to this tenant', schema: 'ErrorDetail' },
  { status: 404, description: "Not found: unknown identifiers and other tenants' alike", schema: 'ErrorDetail' },
  { status: 409, description: "Conflicts with the resource's state", schema: 'ErrorDetail', methods: ['POST', 'PUT', 'DELETE'] },
  { status: 413, description: 'Request body too large (`BODY_LIMIT_BYTES`, decompressed)', schema: 'ErrorDetail', bodies: true },
  { status: 414, description: 'URI too long (over 8 KiB)', schema: 'ErrorDetail' },
  { status: 415, description: 'Unsupported `Content-Encoding` or charset', schema: 'ErrorDetail', bodies: true },
  {
    status: 422,
    description: 'Validation error; also a body nested deeper than 64 levels, text holding NUL or an unpaired surrogate, or a body of another content type than JSON',
    schema: 'HTTPValidationError',
  },
  { status: 429, description: 'Rate limit exceeded', schema: 'ErrorDetail' },
  { status: 431, description: 'Request header fields too large (request head over 16 KiB)', schema: 'ErrorDetail' },
  { status: 500, description: 'Internal server error', schema: 'ErrorDetail' },
];

const COMMON_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit-Policy', 'RateLimit', 'X-Request-Id'];

function headerRefs(names: string[]): Record<string, JsonSchema> {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

/** The headers every response of the route carries: the common ones, and a deprecated route's own (rest-bridge/deprecation.ts). */
function routeHeaders(route: RouteDefinition, names: string[]): string[] {
  if (!route.deprecated) return names;
  return [...names, 'Deprecation', 'Sunset', ...(route.deprecated.link ? ['Link'] : [])];
}

/**
 * A deprecated route's operation: `deprecated: true`, the dates in words, and `x-sunset` (the
 * day, `YYYY-MM-DD`) which `npm run api:check` reads from the last release to allow its removal.
 */
function deprecatedOperation({ since, sunset, link }: NonNullable<RouteDefinition['deprecated']>): JsonSchema {
  const description = `Deprecated since ${since}; may stop answering after ${sunset}.${link ? ` See ${link}.` : ''}`;
  return { deprecated: true, description, 'x-sunset': sunset };
}

function json(schema: JsonSchema): JsonSchema {
  return { 'application/json': { schema } };
}

/** A stream route's body: OpenAPI 3.1 has no schema for SSE items, so one event's JSON goes in `x-event-schema`. */
function eventStream(event: JsonSchema): JsonSchema {
  return { 'text/event-stream': { schema: { type: 'string', description: 'Server-sent events; each `data:` line is one JSON event' }, 'x-event-schema': event } };
}

/** The OpenAPI 3.1 document of the REST surface, generated from the bridge's route table and the supergraph schema. */
export function buildOpenApiDocument(
  routes: DocumentedRoute[],
  schema: GraphQLSchema,
  options: { serverUrl?: string } = {},
): Record<string, unknown> {
  const schemas: SchemaComponents = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const item = (paths[route.path] ??= {});
    const method = route.method.toLowerCase();
    if (item[method]) throw new Error(`Two routes for ${route.method} ${route.path}`);
    try {
      item[method] = operationObject(route, schema, schemas);
    } catch (error) {
      throw new Error(`Route ${route.operationId}: ${(error as Error).message}`);
    }
  }
  return {
    openapi: '3.1.0',
    // Proprietary, as package.json's `UNLICENSED` says: no SPDX identifier fits.
    info: { title: 'Healthcare Practice Platform API', version: '1.0', description: DESCRIPTION, license: { name: 'Proprietary' } },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    security: [{ tenant: [], apiKey: [] }],
    tags: tagObjects(routes),
    paths,
    components: {
      schemas: { ...schemas, ...ERROR_SCHEMAS },
      headers: usedHeaders(paths),
      securitySchemes: {
        tenant: { type: 'apiKey', in: 'header', name: 'TENANT', description: 'The tenant the request is made on behalf of.' },
        apiKey: { type: 'apiKey', in: 'header', name: 'API-KEY', description: 'An API key of that tenant.' },
      },
    },
  };
}

function operationObject(route: DocumentedRoute, schema: GraphQLSchema, schemas: SchemaComponents): JsonSchema {
  const document = parse(route.document);
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== 1) throw new Error('the document must hold exactly one operation');
  const [operation] = operations;
  const variables = new Map((withPageVariable(route, operation).variableDefinitions ?? []).map((v) => [v.variable.name.value, v]));
  const variable = (name: string | undefined, what: string): Variable => {
    const definition = name === undefined ? undefined : variables.get(name);
    if (!definition) throw new Error(`no operation variable for ${what}`);
    const type = typeFromAST(schema, definition.type);
    if (!type || !isInputType(type)) throw new Error(`$${name} has no input type in the schema`);
    return { definition, type };
  };

  const placeholders = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const parameters = [
    ...placeholders.map((name) => parameter('path', name, variable(route.pathParams?.[name], `path parameter ${name}`), schemas)),
    ...Object.entries(route.queryParams ?? {}).map(([name, v]) => {
      const found = variable(v, `query parameter ${name}`);
      return parameter('query', name, { ...found, type: restType(route, 'query', name, found.type) }, schemas);
    }),
    ...Object.entries(route.headerParams ?? {}).map(([name, v]) => parameter('header', name, variable(v, `header ${name}`), schemas)),
  ];

  const result: JsonSchema = { operationId: route.operationId, summary: route.summary, tags: [route.tag], ...(route.deprecated ? deprecatedOperation(route.deprecated) : {}) };
  if (parameters.length) result.parameters = parameters;
  if (route.body && 'fields' in route.body) {
    const fields = Object.entries(route.body.fields).map(([field, name]) => [field, variable(name, `body field ${field}`)] as const);
    const body: JsonSchema = { type: 'object', properties: Object.fromEntries(fields.map(([field, v]) => [field, bodyFieldSchema(v, schemas)])) };
    const required = fields.filter(([, v]) => isNonNullType(v.type) && !v.definition.defaultValue).map(([field]) => field);
    if (required.length) body.required = required;
    result.requestBody = { required: route.body.required, content: withExample(json(body), route.requestExample) };
  } else if (route.body) {
    const { type } = variable(route.body.variable, 'the body');
    // The body is one JSON object even when the variable is nullable: an absent body becomes `{}`.
    const body = inputTypeSchema(new GraphQLNonNull(getNullableType(restBodyType(type, route.body.rename))), schemas);
    result.requestBody = { required: route.body.required, content: withExample(json(body), route.requestExample) };
  }
  if (route.upload) result.requestBody = uploadRequestBody(route.upload);
  const status = route.status ?? 200;
  const success: JsonSchema = { description: route.responseDescription ?? 'Successful Response', headers: headerRefs(routeHeaders(route, COMMON_HEADERS)) };
  if (status !== 204 && route.stream) success.content = eventStream(route.responseSchema ?? firstRootFieldSchema(document, operation, schema));
  else if (status !== 204) success.content = withExample(json(route.responseSchema ?? responseSchemaOf(route, document, operation, schema)), route.responseExample);
  result.responses = { [status]: success, ...errorResponses(route) };
  return result;
}

interface Variable {
  definition: VariableDefinitionNode;
  type: GraphQLInputType;
}

/** A body field mapped to its own variable: the variable's JSON schema, with its default. */
function bodyFieldSchema({ definition, type }: Variable, schemas: SchemaComponents): JsonSchema {
  const schema = inputTypeSchema(type, schemas);
  return definition.defaultValue ? { ...schema, default: valueFromASTUntyped(definition.defaultValue) } : schema;
}

function parameter(location: 'path' | 'query' | 'header', name: string, { definition, type }: Variable, schemas: SchemaComponents): JsonSchema {
  const required = location === 'path' || (isNonNullType(type) && !definition.defaultValue);
  const result: JsonSchema = { name, in: location, required, schema: parameterSchema(type, definition.defaultValue, schemas) };
  // Repeated keys (`?id=a&id=b`) are how the bridge reads list parameters.
  if (location === 'query' && isListType(getNullableType(type))) Object.assign(result, { style: 'form', explode: true });
  return result;
}

/**
 * `route.result` is code and cannot be read, so the body is described by convention: a route answers
 * with the value of its operation's first root field (aliases and fragments applied). A route whose
 * `result` returns anything else must set `responseSchema`.
 */
function firstRootFieldSchema(document: DocumentNode, operation: OperationDefinitionNode, schema: GraphQLSchema): JsonSchema {
  const root = schema.getRootType(operation.operation);
  if (!root) throw new Error(`the schema has no ${operation.operation} type`);
  const fragments = Object.fromEntries(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((f) => [f.name.value, f]),
  );
  const [first] = Object.values(objectSchema(root, operation.selectionSet.selections, { schema, fragments }).properties);
  if (!first) throw new Error('the operation selects no root field');
  // A lookup by id (`dashboard(id)`, nullable on the graph) is null only beside its NOT_FOUND, which the
  // route answers as a 404; another nullable root field (a tenant's logo) may well answer null.
  const selected = operation.selectionSet.selections.find((s) => s.kind === Kind.FIELD);
  const lookup = operation.operation === 'query' && selected?.kind === Kind.FIELD && root.getFields()[selected.name.value]?.args.some((arg) => arg.name === 'id');
  return lookup ? notNull(first) : first;
}

/** A route's body by convention: its first root field's value, or for an envelope route the page built from its connection. */
function responseSchemaOf(route: RouteDefinition, document: DocumentNode, operation: OperationDefinitionNode, schema: GraphQLSchema): JsonSchema {
  const root = firstRootFieldSchema(document, operation, schema);
  return route.paged === 'envelope' ? pageSchema(root) : root;
}

function errorResponses(route: RouteDefinition): Record<string, JsonSchema> {
  // Every route can find what it depends on down (docs/api.md, Errors: outages): a subgraph service, the database, and an outside service it calls.
  const depends = route.upstream ? `The ${route.upstream}, a subgraph service or the database` : 'A subgraph service or the database';
  const upstream = [{ status: 503, description: `${depends} could not be reached; retry after Retry-After seconds`, schema: 'ErrorDetail' }];
  return Object.fromEntries(
    [...ERRORS.filter((e) => (!e.methods || e.methods.includes(route.method)) && (!e.bodies || route.body)), ...upstream].map((e) => [
      e.status,
      {
        description: e.description,
        headers: headerRefs(routeHeaders(route, e.status === 429 || e.status === 503 ? [...COMMON_HEADERS, 'Retry-After'] : COMMON_HEADERS)),
        content: json({ $ref: `#/components/schemas/${e.schema}` }),
      },
    ]),
  );
}
