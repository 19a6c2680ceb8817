/**
 * The OpenAPI 3.1 document rendered as OpenAPI 3.0.3, for tools that read only 3.0 (openapi-diff,
 * which `npm run api:check` runs: its parser refuses 3.1). The rendering is exact for what our
 * generator writes and refuses anything else, so a diff of two renderings is a diff of the
 * documents: a schema keyword 3.0 cannot say is an error here, never silently dropped.
 */

type Json = Record<string, unknown>;

// JSON Schema keywords OpenAPI 3.1 has and 3.0 has not (or reads otherwise), beyond `type` lists and `const`.
const UNRENDERABLE = ['$defs', 'prefixItems', 'if', 'then', 'else', 'dependentSchemas', 'dependentRequired', 'unevaluatedProperties', 'unevaluatedItems', 'contentMediaType', 'contentEncoding', 'examples', 'patternProperties', 'propertyNames', 'contains', '$id', '$anchor', '$dynamicRef'];

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The 3.0 rendering of a 3.1 document; throws, naming the place, on a construct 3.0 cannot express. */
export function toOpenApi30(document: Json): Json {
  if (typeof document.openapi !== 'string' || !document.openapi.startsWith('3.1.')) throw new Error(`not an OpenAPI 3.1 document: ${String(document.openapi)}`);
  if ('jsonSchemaDialect' in document) throw new Error('jsonSchemaDialect has no OpenAPI 3.0 rendering');
  const { webhooks, ...rest } = document;
  const result: Json = { ...rest, openapi: '3.0.3', paths: mapValues(document.paths, (item, path) => pathItem(item, `paths.${path}`)) };
  // 3.0 has no webhooks; kept whole as an extension, which openapi-diff compares as one value.
  if (webhooks !== undefined) result['x-webhooks'] = webhooks;
  const components = document.components;
  if (isObject(components)) {
    result.components = {
      ...components,
      ...(isObject(components.schemas) ? { schemas: mapValues(components.schemas, (s, name) => schema(s, `components.schemas.${name}`)) } : {}),
      ...(isObject(components.headers) ? { headers: mapValues(components.headers, (h, name) => withSchema(h, `components.headers.${name}`)) } : {}),
    };
  }
  return result;
}

function mapValues(value: unknown, map: (entry: unknown, key: string) => unknown): Json {
  if (!isObject(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, map(entry, key)]));
}

function pathItem(item: unknown, at: string): Json {
  return mapValues(item, (operation, method) => (isObject(operation) && method !== 'parameters' && method !== 'servers' ? operationObject(operation, `${at}.${method}`) : operation));
}

function operationObject(operation: Json, at: string): Json {
  const result: Json = { ...operation };
  if (Array.isArray(operation.parameters)) result.parameters = operation.parameters.map((p, i) => withSchema(p, `${at}.parameters.${i}`));
  if (isObject(operation.requestBody)) result.requestBody = { ...operation.requestBody, content: content(operation.requestBody.content, `${at}.requestBody`) };
  result.responses = mapValues(operation.responses, (response, status) => {
    if (!isObject(response)) return response;
    const at2 = `${at}.responses.${status}`;
    return {
      ...response,
      ...(response.headers ? { headers: mapValues(response.headers, (h, name) => withSchema(h, `${at2}.headers.${name}`)) } : {}),
      ...(response.content ? { content: content(response.content, at2) } : {}),
    };
  });
  return result;
}

/** A media type map: each media type's schema (and a stream's `x-event-schema`) rendered. */
function content(value: unknown, at: string): Json {
  return mapValues(value, (media, type) => {
    if (!isObject(media)) return media;
    const result: Json = { ...media };
    if (media.schema !== undefined) result.schema = schema(media.schema, `${at}.content.${type}.schema`);
    if (media['x-event-schema'] !== undefined) result['x-event-schema'] = schema(media['x-event-schema'], `${at}.content.${type}.x-event-schema`);
    return result;
  });
}

/** A parameter or header object: its schema rendered. */
function withSchema(value: unknown, at: string): unknown {
  if (!isObject(value) || value.schema === undefined) return value;
  return { ...value, schema: schema(value.schema, `${at}.schema`) };
}

/** One JSON Schema: `type: [T, 'null']` becomes `type: T, nullable: true` (so does a `{type: 'null'}` among `anyOf`), `const` an `enum` of one. */
function schema(value: unknown, at: string): Json {
  if (!isObject(value)) throw new Error(`${at}: a schema must be an object`);
  if (typeof value.$ref === 'string') {
    // 3.0 ignores whatever sits beside a $ref; 3.1 reads it.
    if (Object.keys(value).length > 1) throw new Error(`${at}: keywords beside $ref have no OpenAPI 3.0 rendering`);
    return value;
  }
  const unrenderable = UNRENDERABLE.find((keyword) => keyword in value);
  if (unrenderable) throw new Error(`${at}: ${unrenderable} has no OpenAPI 3.0 rendering`);
  if (typeof value.exclusiveMinimum === 'number' || typeof value.exclusiveMaximum === 'number') throw new Error(`${at}: numeric exclusive bounds have no OpenAPI 3.0 rendering`);
  const result: Json = { ...value };
  if (Array.isArray(value.type)) {
    const types = value.type.filter((type) => type !== 'null');
    if (types.length !== 1) throw new Error(`${at}: type ${JSON.stringify(value.type)} has no OpenAPI 3.0 rendering`);
    result.type = types[0];
    if (types.length < value.type.length) result.nullable = true;
  } else if (value.type === 'null') {
    throw new Error(`${at}: type null has no OpenAPI 3.0 rendering`);
  }
  if ('const' in value) {
    delete result.const;
    result.enum = [value.const];
  }
  if (isObject(value.properties)) result.properties = mapValues(value.properties, (s, name) => schema(s, `${at}.properties.${name}`));
  if (value.items !== undefined) result.items = schema(value.items, `${at}.items`);
  if (isObject(value.additionalProperties)) result.additionalProperties = schema(value.additionalProperties, `${at}.additionalProperties`);
  if (isObject(value.not)) result.not = schema(value.not, `${at}.not`);
  for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = value[keyword];
    if (!Array.isArray(list)) continue;
    // A nullable reference (`anyOf: [{$ref}, {type: 'null'}]`) is 3.0's `nullable` beside the other members.
    const members = keyword === 'allOf' ? list : list.filter((member) => !(isObject(member) && member.type === 'null' && Object.keys(member).length === 1));
    if (members.length === 0) throw new Error(`${at}: ${keyword} of null alone has no OpenAPI 3.0 rendering`);
    if (members.length < list.length) result.nullable = true;
    result[keyword] = members.map((s, i) => schema(s, `${at}.${keyword}.${i}`));
  }
  return result;
}
