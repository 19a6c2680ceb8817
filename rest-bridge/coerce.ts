import {
  GraphQLFloat,
  GraphQLInputType,
  GraphQLInt,
  GraphQLNonNull,
  GraphQLSchema,
  OperationDefinitionNode,
  VariableDefinitionNode,
  isInputObjectType,
  isInputType,
  isNonNullType,
  typeFromAST,
} from 'graphql';
import type { ValidationIssue } from '../schema/errors';
import { coerceJson, coerceText, fail, isPlainObject } from './coerce-value';
import { restBodyType, toGraphFields } from './body-rename';
import type { BodyMapping, RouteDefinition } from './types';

/** The parts of an HTTP request the bridge turns into variables; no framework types, so no I/O. */
export interface HttpInput {
  pathParams: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON; undefined when no body was sent. */
  body: unknown;
}

/** Where a text parameter comes from. */
export type TextSource = 'path' | 'query' | 'header';

/** One operation variable with its schema type, resolved once per mapping entry. */
interface Variable {
  name: string;
  type: GraphQLInputType;
  /** Absent and non-null with no default: FastAPI's `missing`. */
  required: boolean;
}

function resolveVariable(route: RouteDefinition, defs: Map<string, VariableDefinitionNode>, schema: GraphQLSchema, name: string): Variable {
  const def = defs.get(name);
  const type = def && typeFromAST(schema, def.type);
  // A route naming a variable its document lacks is a bug in the route table, not bad input.
  if (!def || !type || !isInputType(type)) throw new Error(`${route.operationId}: no input variable $${name} in its document`);
  return { name, type, required: isNonNullType(type) && def.defaultValue === undefined };
}

/**
 * Builds the operation's variables from a request, or every validation issue it has, in
 * FastAPI's order: path, query, header, then body. Absent optional parameters are left out so
 * GraphQL applies the variable's default.
 */
export function coerceRequest(
  route: RouteDefinition,
  operation: OperationDefinitionNode,
  schema: GraphQLSchema,
  input: HttpInput,
): { variables: Record<string, unknown> } | { issues: ValidationIssue[] } {
  const defs = new Map((operation.variableDefinitions ?? []).map((d) => [d.variable.name.value, d]));
  const variables: Record<string, unknown> = {};
  const issues: ValidationIssue[] = [];

  const fromText = (source: TextSource, mapping: Record<string, string> | undefined, values: Record<string, string | string[] | undefined>) => {
    for (const [restName, name] of Object.entries(mapping ?? {})) {
      const variable = resolveVariable(route, defs, schema, name);
      const raw = values[restName];
      if (raw === undefined) {
        if (variable.required) fail(issues, 'missing', [source, restName], null);
        continue;
      }
      variables[name] = coerceText(restType(route, source, restName, variable.type), raw, [source, restName], issues);
    }
  };
  fromText('path', route.pathParams, input.pathParams);
  fromText('query', route.queryParams, input.query);
  fromText('header', route.headerParams, input.headers);

  if (route.body && 'fields' in route.body) {
    const fields = Object.entries(route.body.fields).map(([field, name]) => [field, resolveVariable(route, defs, schema, name)] as const);
    const body = bodyObject(route.body, input.body, issues);
    for (const [field, variable] of body ? fields : []) {
      if (body![field] === undefined) {
        if (variable.required) fail(issues, 'missing', ['body', field], body);
        continue;
      }
      variables[variable.name] = coerceJson(variable.type, body![field], ['body', field], issues);
    }
    for (const [field, value] of Object.entries(body ?? {})) if (!Object.hasOwn(route.body.fields, field)) fail(issues, 'extra_forbidden', ['body', field], value);
  } else if (route.body) {
    const variable = resolveVariable(route, defs, schema, route.body.variable);
    const rename = route.body.rename;
    variables[variable.name] = toGraphFields(coerceBody(route.body, restBodyType(variable.type, rename), input.body, issues), rename);
  }
  if (issues.length > 0) return { issues };
  return { variables: route.variables ? route.variables(variables) : variables };
}

/** The type a text parameter is validated (and documented) as: its variable's, unless the route keeps a REST scalar of its own. */
export function restType(route: RouteDefinition, source: TextSource, restName: string, type: GraphQLInputType): GraphQLInputType {
  const scalar = source === 'query' ? route.restScalars?.[restName] : undefined;
  if (!scalar) return type;
  const own = scalar === 'Int' ? GraphQLInt : GraphQLFloat;
  return isNonNullType(type) ? new GraphQLNonNull(own) : own;
}

/** A body read field by field: the object, or undefined once its refusal is recorded (the same refusals as a whole body's). */
function bodyObject(mapping: BodyMapping, body: unknown, issues: ValidationIssue[]): Record<string, unknown> | undefined {
  if ((body === undefined || body === null) && mapping.required) return fail(issues, 'missing', ['body'], null);
  const received = body ?? {};
  return isPlainObject(received) ? received : fail(issues, 'model_attributes_type', ['body'], received);
}

/**
 * The body is one model in FastAPI: a non-object is refused whole before any field is looked at.
 * A JSON `null` is no body, as FastAPI reads it (`missing` when one is required).
 */
function coerceBody(mapping: BodyMapping, type: GraphQLInputType, body: unknown, issues: ValidationIssue[]): unknown {
  if ((body === undefined || body === null) && mapping.required) return fail(issues, 'missing', ['body'], null);
  const received = body ?? {};
  const model = isNonNullType(type) ? type.ofType : type;
  if (isInputObjectType(model) && !isPlainObject(received)) return fail(issues, 'model_attributes_type', ['body'], received);
  return coerceJson(type, received, ['body'], issues);
}
