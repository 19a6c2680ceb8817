import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { createPubSub } from '@graphql-yoga/subscription';
import { GraphQLSchema, parse } from 'graphql';
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
  return buildSubgraphSchema({ typeDefs, resolvers: resolverMap as GraphQLResolverMap<unknown> });
}
