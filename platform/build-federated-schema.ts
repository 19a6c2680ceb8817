import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { createPubSub } from '@graphql-yoga/subscription';
import { getNamedType, GraphQLSchema, isEnumType, isInputObjectType, isInterfaceType, isObjectType, parse, type GraphQLInputType } from 'graphql';
import { buildSchema, createResolversMap, type NonEmptyArray } from 'type-graphql';
import { notFreeTextFields, refuseCardNumbers } from './stored-text-rule';

/** Federation 2 directives every subgraph may use. */
const FEDERATION_LINK = `extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable", "@external", "@requires", "@provides", "@inaccessible"])`;

/** Reference resolvers per entity type name: `{ Tenant: { __resolveReference } }`. */
export type ReferenceResolvers = Record<string, { __resolveReference: (...args: any[]) => unknown }>;

/**
 * Turns a type-graphql schema into a Federation 2 subgraph. `printSubgraphSchema` cannot print a
 * raw type-graphql schema, so the SDL goes through `printSchemaWithDirectives` (docs/architecture.md, Stack notes).
 * Every mutation passes the card number rule before its resolver (docs/decisions.md, Card numbers in free text).
 */
export async function buildFederatedSchema(
  resolvers: NonEmptyArray<Function>,
  referenceResolvers: ReferenceResolvers = {},
  orphanedTypes: Function[] = [],
): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers,
    orphanedTypes,
    skipCheck: true,
    validate: false,
    // type-graphql insists on a pubSub once any subscription exists, even with its own `subscribe`.
    pubSub: createPubSub(),
  });
  const resolverMap = createResolversMap(schema) as Record<string, any>;
  // Every mutation stores what it is sent: the card number rule reads all of it first (stored-text-rule.ts).
  const exempt = notFreeTextFields(schema);
  for (const [field, resolve] of Object.entries(resolverMap.Mutation ?? {})) {
    if (typeof resolve === 'function') resolverMap.Mutation[field] = refuseCardNumbers(resolve as never, exempt);
  }
  for (const [typeName, reference] of Object.entries(referenceResolvers)) {
    resolverMap[typeName] = { ...(resolverMap[typeName] ?? {}), ...reference };
  }
  const typeDefs = parse(`${FEDERATION_LINK}\n${printSchemaWithDirectives(schema)}`);
  return withInternalEnumDefaults(buildSubgraphSchema({ typeDefs, resolvers: resolverMap as GraphQLResolverMap<unknown> }));
}

/**
 * buildSubgraphSchema reads argument and input-field defaults from the SDL before it gives enum
 * values their internal values from the resolver map, so a default such as `sortDirection = DESC`
 * would reach a resolver as `"DESC"` where an explicit `DESC` arrives as `"desc"` (docs/api.md,
 * Schema style). This gives every enum default its internal value, as graphql-js would have.
 */
function withInternalEnumDefaults(schema: GraphQLSchema): GraphQLSchema {
  const internal = (type: GraphQLInputType, value: unknown): unknown => {
    const named = getNamedType(type);
    if (!isEnumType(named)) return value;
    if (Array.isArray(value)) return value.map((item) => internal(named, item));
    return typeof value === 'string' ? (named.getValue(value)?.value ?? value) : value;
  };
  const fix = (holder: { type: GraphQLInputType; defaultValue: unknown }) => {
    if (holder.defaultValue !== undefined) holder.defaultValue = internal(holder.type, holder.defaultValue);
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (isObjectType(type) || isInterfaceType(type)) for (const field of Object.values(type.getFields())) field.args.forEach(fix);
    if (isInputObjectType(type)) Object.values(type.getFields()).forEach(fix);
  }
  return schema;
}
