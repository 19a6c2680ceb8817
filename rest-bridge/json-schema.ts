import {
  astFromValue,
  GraphQLNonNull,
  getNamedType,
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLInputType,
  GraphQLObjectType,
  GraphQLOutputType,
  GraphQLScalarType,
  GraphQLSchema,
  isAbstractType,
  isEnumType,
  isListType,
  isNonNullType,
  isScalarType,
  FieldNode,
  FragmentDefinitionNode,
  Kind,
  SelectionNode,
  ValueNode,
  valueFromASTUntyped,
} from 'graphql';
import { GRAPH_NAME } from './body-rename';
import { restSpelling, restSpellings } from './enum-spelling';
import { INPUT_FIELD_RULES, type InputFieldRule } from '../schema/input-field-rules';

/** A JSON Schema (draft 2020-12, the dialect OpenAPI 3.1 embeds). */
export type JsonSchema = Record<string, unknown>;

/** `components.schemas`: input object types land here by name, so each is written once and referenced. */
export type SchemaComponents = Record<string, JsonSchema>;

/** What walking an operation's selections needs besides the types: abstract types' members and named fragments. */
export interface SelectionContext {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
}

/** An output object as GraphQL returns it: exactly the selected response keys, each always present. */
export interface ObjectSchema extends JsonSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required: string[];
}

// graphql-scalars / type-graphql names; any scalar not listed travels as a string.
const SCALARS: Record<string, JsonSchema> = {
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  String: { type: 'string' },
  ID: { type: 'string' },
  DateTime: { type: 'string', format: 'date-time' },
  Date: { type: 'string', format: 'date' },
  UUID: { type: 'string', format: 'uuid' },
  JSON: {},
  JSONObject: { type: 'object' },
  SafeInt: { type: 'integer' },
};

// Also allows null: OpenAPI 3.1 dropped `nullable`; JSON Schema widens `type` into an array instead.
function orNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string') {
    const widened: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) widened.enum = [...schema.enum, null];
    return widened;
  }
  if (Array.isArray(schema.type)) return { ...schema, type: [...schema.type, 'null'] };
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  if (schema.$ref !== undefined) return { anyOf: [schema, { type: 'null' }] };
  return schema; // no `type`: already accepts anything, null included
}

/** The inverse of orNull: the schema without its null (a REST route's body is never null: a null root field is the 404 of its error). */
export function notNull(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== 'null');
    const narrowed: JsonSchema = { ...schema, type: types.length === 1 ? types[0] : types };
    if (Array.isArray(schema.enum)) narrowed.enum = schema.enum.filter((v) => v !== null);
    return narrowed;
  }
  if (Array.isArray(schema.anyOf)) {
    const rest = (schema.anyOf as JsonSchema[]).filter((s) => !(s.type === 'null' && Object.keys(s).length === 1));
    if (rest.length === 1 && Object.keys(schema).length === 1) return rest[0];
    return { ...schema, anyOf: rest };
  }
  return schema;
}

function scalarSchema(type: GraphQLScalarType): JsonSchema {
  return { ...(SCALARS[type.name] ?? { type: 'string' }) };
}

function enumSchema(type: GraphQLEnumType): JsonSchema {
  return { type: 'string', enum: restSpellings(type) };
}

function described(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  return description ? { ...schema, description } : schema;
}

/** JSON Schema of a value of a GraphQL input type, enums in REST's spelling (enum-spelling.ts). */
export function inputTypeSchema(type: GraphQLInputType, components: SchemaComponents): JsonSchema {
  const inner = isNonNullType(type) ? type.ofType : type;
  let schema: JsonSchema;
  if (isListType(inner)) schema = { type: 'array', items: inputTypeSchema(inner.ofType, components) };
  else if (isEnumType(inner)) schema = enumSchema(inner);
  else if (isScalarType(inner)) schema = scalarSchema(inner);
  else {
    registerInputObject(inner, components);
    schema = { $ref: `#/components/schemas/${inner.name}` };
  }
  return isNonNullType(type) ? schema : orNull(schema);
}

function registerInputObject(type: GraphQLInputObjectType, components: SchemaComponents): void {
  if (type.name in components) return;
  const schema: JsonSchema = { type: 'object' };
  components[type.name] = schema; // registered before its fields so recursive inputs end in a $ref
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of Object.values(type.getFields())) {
    const rule = INPUT_FIELD_RULES[type.name]?.[(field.extensions[GRAPH_NAME] as string | undefined) ?? field.name];
    let property = described(ruledFieldSchema(field.type, rule, components), field.description);
    if (field.defaultValue !== undefined) {
      // graphql-js holds field defaults as internal values; astFromValue serializes them back.
      const ast = astFromValue(field.defaultValue, field.type);
      if (ast) property = { ...property, default: valueFromASTUntyped(ast) };
    } else if (isNonNullType(field.type)) {
      required.push(field.name);
    }
    properties[field.name] = property;
  }
  Object.assign(schema, described({ properties }, type.description));
  if (required.length) schema.required = required;
  schema.additionalProperties = false;
}

/**
 * An input field's schema with its rule (schema/input-field-rules.ts) applied: an optional field
 * that refuses null is written as its type alone (still not required), a JSON scalar as the JSON
 * types it takes, an integer with its range.
 */
function ruledFieldSchema(type: GraphQLInputType, rule: InputFieldRule | undefined, components: SchemaComponents): JsonSchema {
  if (!rule) return inputTypeSchema(type, components);
  const nullable = !isNonNullType(type) && rule.nullable !== false;
  let schema = inputTypeSchema(isNonNullType(type) ? type : new GraphQLNonNull(type), components);
  // anyOf rather than a `type` list: OpenAPI 3.0 (the contract check's rendering) has no type lists.
  if (rule.jsonTypes) schema = { ...schema, ...(rule.jsonTypes.length === 1 ? { type: rule.jsonTypes[0] } : { anyOf: rule.jsonTypes.map((type) => ({ type })) }) };
  if (rule.minimum !== undefined) schema = { ...schema, minimum: rule.minimum };
  return nullable ? orNull(schema) : schema;
}

/** Schema of a query, path or header parameter bound to a variable of `type`, with the variable's default. */
export function parameterSchema(type: GraphQLInputType, defaultValue: ValueNode | undefined, components: SchemaComponents): JsonSchema {
  const schema = inputTypeSchema(type, components);
  if (!defaultValue) return schema;
  const value = valueFromASTUntyped(defaultValue);
  const named = getNamedType(type);
  const spell = (v: unknown) => (isEnumType(named) && typeof v === 'string' ? restSpelling(named, v) : v);
  return { ...schema, default: Array.isArray(value) ? value.map(spell) : spell(value) };
}

/** JSON Schema of what GraphQL returns for a field of `type` with the given sub-selections. */
export function outputTypeSchema(type: GraphQLOutputType, selections: readonly SelectionNode[], ctx: SelectionContext): JsonSchema {
  const inner = isNonNullType(type) ? type.ofType : type;
  let schema: JsonSchema;
  if (isListType(inner)) schema = { type: 'array', items: outputTypeSchema(inner.ofType, selections, ctx) };
  else if (isEnumType(inner)) schema = enumSchema(inner);
  else if (isScalarType(inner)) schema = scalarSchema(inner);
  else {
    const objects = isAbstractType(inner) ? ctx.schema.getPossibleTypes(inner) : [inner];
    const variants = objects.map((object) => objectSchema(object, selections, ctx));
    // anyOf, not oneOf: members selected without __typename can have identical shapes.
    schema = variants.length === 1 ? variants[0] : { anyOf: variants };
  }
  return isNonNullType(type) ? schema : orNull(schema);
}

/** The object `type` yields under `selections`: keys by alias, fragments applied where their type condition holds. */
export function objectSchema(type: GraphQLObjectType, selections: readonly SelectionNode[], ctx: SelectionContext): ObjectSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [key, nodes] of collectFields(type, selections, ctx, new Map())) {
    const name = nodes[0].name.value;
    if (name === '__typename') {
      properties[key] = { type: 'string', const: type.name };
      continue;
    }
    const field = type.getFields()[name];
    if (!field) throw new Error(`${type.name} has no field ${name}`);
    const subSelections = nodes.flatMap((n) => n.selectionSet?.selections ?? []);
    properties[key] = described(outputTypeSchema(field.type, subSelections, ctx), field.description);
  }
  return { type: 'object', properties, required: Object.keys(properties) };
}

// Groups field nodes by response key, as GraphQL execution merges them (spec section 6.3.2).
function collectFields(
  type: GraphQLObjectType,
  selections: readonly SelectionNode[],
  ctx: SelectionContext,
  into: Map<string, FieldNode[]>,
): Map<string, FieldNode[]> {
  for (const selection of selections) {
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      into.set(key, [...(into.get(key) ?? []), selection]);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (applies(selection.typeCondition?.name.value, type, ctx)) collectFields(type, selection.selectionSet.selections, ctx, into);
    } else {
      const fragment = ctx.fragments[selection.name.value];
      if (!fragment) throw new Error(`Unknown fragment ${selection.name.value}`);
      if (applies(fragment.typeCondition.name.value, type, ctx)) collectFields(type, fragment.selectionSet.selections, ctx, into);
    }
  }
  return into;
}

function applies(condition: string | undefined, type: GraphQLObjectType, ctx: SelectionContext): boolean {
  if (condition === undefined || condition === type.name) return true;
  const conditionType = ctx.schema.getType(condition);
  return conditionType !== undefined && isAbstractType(conditionType) && ctx.schema.isSubType(conditionType, type);
}
