import { GraphQLInputObjectType, GraphQLNonNull, isInputObjectType, isNonNullType, type GraphQLInputFieldConfigMap, type GraphQLInputType } from 'graphql';
import type { ValidationIssue } from '../schema/errors';

/**
 * A whole-body route whose input type the graph renamed fields of (docs/api.md, "Schema style":
 * `startsAt` where the contract says `startDate`) keeps the contract's names on REST: the body is
 * read, documented and refused in them, and only the variable handed to the graph uses the graph's.
 * `rename` is REST body field -> input field, top-level fields of the body's input object only.
 */

/** The input field a REST view's field stands for, kept where json-schema.ts looks rules up by the graph's name. */
export const GRAPH_NAME = 'graphName';

const views = new WeakMap<Record<string, string>, WeakMap<GraphQLInputObjectType, GraphQLInputObjectType>>();

/** Whole words of `text` that are graph names in `rename`, in REST's spelling (`endsAt must not be before startsAt`). */
export function restWords(text: string, rename: Record<string, string>): string {
  let out = text;
  for (const [rest, graph] of Object.entries(rename)) out = out.replace(new RegExp(`\\b${graph}\\b`, 'g'), rest);
  return out;
}

/**
 * The body's input type as REST sees it: same name, fields in the same order under the contract's
 * names, descriptions speaking them too. Made once per type and mapping.
 */
export function restBodyType(type: GraphQLInputType, rename: Record<string, string> | undefined): GraphQLInputType {
  if (!rename) return type;
  const inner = isNonNullType(type) ? type.ofType : type;
  if (!isInputObjectType(inner)) throw new Error(`a body rename needs an input object, not ${String(type)}`);
  let byType = views.get(rename);
  if (!byType) views.set(rename, (byType = new WeakMap()));
  let view = byType.get(inner);
  if (!view) {
    const toRest = new Map(Object.entries(rename).map(([rest, graph]) => [graph, rest]));
    const config = inner.toConfig();
    for (const graph of toRest.keys()) if (!(graph in config.fields)) throw new Error(`${inner.name} has no field ${graph} to rename`);
    const fields: GraphQLInputFieldConfigMap = {};
    for (const [name, field] of Object.entries(config.fields)) {
      const description = field.description ? restWords(field.description, rename) : field.description;
      fields[toRest.get(name) ?? name] = { ...field, description, extensions: { ...field.extensions, [GRAPH_NAME]: name } };
    }
    view = new GraphQLInputObjectType({ ...config, fields });
    byType.set(inner, view);
  }
  return isNonNullType(type) ? new GraphQLNonNull(view) : view;
}

/** The coerced body with the graph's field names, ready to be the variable. */
export function toGraphFields(value: unknown, rename: Record<string, string> | undefined): unknown {
  if (!rename || value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [rename[key] ?? key, field]));
}

/** A subgraph's issue about a renamed field (`["body", "endsAt"]`), located and worded in the contract's names. */
export function restIssue(issue: ValidationIssue, rename: Record<string, string>): ValidationIssue {
  const toRest = new Map(Object.entries(rename).map(([rest, graph]) => [graph, rest]));
  const [head, field, ...rest] = issue.loc;
  const loc = head === 'body' && typeof field === 'string' && toRest.has(field) ? [head, toRest.get(field)!, ...rest] : issue.loc;
  const ctx = issue.ctx && typeof issue.ctx.error === 'string' ? { ...issue.ctx, error: restWords(issue.ctx.error, rename) } : issue.ctx;
  return { ...issue, loc, msg: restWords(issue.msg, rename), ...(ctx ? { ctx } : {}) };
}
