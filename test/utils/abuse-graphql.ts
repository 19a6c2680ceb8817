import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Supergraph } from '@apollo/federation-internals';
import fc from 'fast-check';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { brief, describeRequest, isErrorShape, leakIn, type AbuseRequest, type AbuseResponse } from './abuse-http';
import { refusedText, wrongValue } from './abuse-openapi';

/** The API schema clients see, from the checked-in supergraph (federation's join directives removed). */
export function apiSchema(): GraphQLSchema {
  const sdl = readFileSync(join(__dirname, '../../schema/supergraph.graphql'), 'utf8');
  return Supergraph.build(sdl).apiSchema().toGraphQLJSSchema();
}

/** A selection set for `type`: its leaf fields, and `__typename` of the objects it holds (no argument-taking fields). */
export function selectionOf(type: GraphQLOutputType, depth = 0): string {
  const named = getNamedType(type);
  if (isLeafType(named)) return '';
  if (!isObjectType(named)) return '{ __typename }';
  const parts = ['__typename'];
  for (const field of Object.values(named.getFields())) {
    if (field.args.some((a) => isNonNullType(a.type))) continue;
    const inner = getNamedType(field.type);
    if (isLeafType(inner)) parts.push(field.name);
    else if (depth < 1) parts.push(`${field.name} ${selectionOf(field.type, depth + 1)}`);
  }
  return `{ ${parts.join(' ')} }`;
}

/** An operation calling one root field with every argument as a variable. */
export function operationFor(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>): string {
  const vars = field.args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
  const args = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
  return `${kind} Abuse${vars ? `(${vars})` : ''} { ${field.name}${args ? `(${args})` : ''} ${selectionOf(field.type)} }`;
}

/** A value that fits a GraphQL input type (roughly), the base a mutation starts from. */
export function inputValue(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return inputValue(type.ofType, depth);
  if (isListType(type)) return depth > 3 ? fc.constant([]) : fc.array(inputValue(type.ofType, depth + 1), { maxLength: 2 });
  if (isEnumType(type)) return fc.constantFrom(...type.getValues().map((v) => v.name));
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields());
    const record: Record<string, fc.Arbitrary<unknown>> = {};
    for (const f of fields) record[f.name] = depth > 3 ? fc.constant(null) : inputValue(f.type, depth + 1);
    return fc.record(record, { requiredKeys: fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => f.name) });
  }
  switch (type.name) {
    case 'Int':
      return fc.integer({ min: 1, max: 100 });
    case 'Float':
      return fc.double({ min: 0, max: 1000, noNaN: true });
    case 'Boolean':
      return fc.boolean();
    case 'ID':
      return fc.uuid().map(String);
    case 'JSON':
    case 'JSONObject':
      return fc.jsonValue({ maxDepth: 2 });
    case 'DateTime':
      return fc.constantFrom('2026-01-01T00:00:00Z', '2025-06-30T12:00:00.000Z');
    default:
      return type.name === 'String' ? fc.string({ maxLength: 12 }) : fc.string({ maxLength: 12 });
  }
}

/** A replacement for one variable: wrong types, null, NUL and surrogates, huge text, nesting. */
export const variableMutation = (): fc.Arbitrary<{ kind: string; value: unknown }> =>
  fc.oneof(
    wrongValue().map((value) => ({ kind: 'wrong-type', value })),
    fc.constant({ kind: 'null', value: null }),
    refusedText().map((value) => ({ kind: 'bad-text', value })),
    fc.constantFrom(100_000, 900_000).map((n) => ({ kind: 'huge', value: `h${n}` })),
    fc.constantFrom(10, 200).map((n) => ({ kind: 'nested', value: JSON.parse('['.repeat(n) + ']'.repeat(n)) })),
  );

/** A `huge` mutation's text, built only when sent (`h<length>` stands for it in failure messages). */
export const expandHuge = (m: { kind: string; value: unknown }): unknown => (m.kind === 'huge' ? 'x'.repeat(Number(String(m.value).slice(1))) : m.value);

/** What a /graphql answer must never be: a 5xx, not JSON, not a GraphQL result, an INTERNAL_SERVER_ERROR, a leak; and not a clean success when `refuse` says why it cannot be one. */
export function graphqlProblems(res: AbuseResponse, refuse?: string): string[] {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`status ${res.status}`);
  if (!res.contentType.startsWith('application/json') && !res.contentType.startsWith('application/graphql-response+json')) problems.push(`content-type "${res.contentType}"`);
  const leak = leakIn(res.text);
  if (leak) problems.push(`body leaks "${leak.trim()}"`);
  if (!res.isJson) return [...problems, `body is not JSON: ${brief(res.text, 100)}`];
  // Refused before GraphQL (a body that is not JSON, too large...): the edge's error shape will do.
  if (res.status >= 400 && isErrorShape(res.json)) return problems;
  const results = Array.isArray(res.json) ? res.json : [res.json];
  for (const result of results as any[]) {
    if (!result || typeof result !== 'object' || (!('data' in result) && !Array.isArray(result.errors))) {
      problems.push(`not a GraphQL result: ${brief(result, 120)}`);
      continue;
    }
    for (const error of result.errors ?? []) {
      const code = error?.extensions?.code;
      if (typeof error?.message !== 'string' || !code || code === 'INTERNAL_SERVER_ERROR') problems.push(`error with code ${code ?? 'none'}: ${brief(error?.message, 120)}`);
    }
    if (refuse && !result.errors?.length) problems.push(`answered without an error though ${refuse}`);
  }
  return [...new Set(problems)];
}

/** Throws the problems of a /graphql answer with the request that caused them. */
export function assertGraphQLSafe(req: AbuseRequest, res: AbuseResponse, refuse?: string): void {
  const problems = graphqlProblems(res, refuse);
  if (problems.length > 0) throw new Error(`${problems.join('; ')}\n  request: ${describeRequest(req)}`);
}

/** The smallest value a GraphQL input type accepts (required fields only), so a single bad field is what a server judges. */
export function minimalValue(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return minimalValue(type.ofType);
  if (isListType(type)) return [];
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type)) {
    const required = Object.values(type.getFields()).filter((f) => isNonNullType(f.type) && f.defaultValue === undefined);
    return Object.fromEntries(required.map((f) => [f.name, minimalValue(f.type)]));
  }
  const scalars: Record<string, unknown> = { Int: 1, Float: 1, Boolean: false, ID: '00000000-0000-4000-8000-000000000000', JSON: {}, JSONObject: {}, DateTime: '2026-01-01T00:00:00Z' };
  return type.name in scalars ? scalars[type.name] : 'x';
}
