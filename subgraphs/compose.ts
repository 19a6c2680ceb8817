import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeServices } from '@apollo/composition';
import { printSubgraphSchema } from '@apollo/subgraph';
import { isEnumType, parse, type GraphQLSchema } from 'graphql';
import { SUBGRAPHS } from './registry';
import { buildFederatedSchema } from '../platform/build-federated-schema';
import { schemaDir } from '../schema/paths';
import type { EnumSpellings } from '../schema/enum-spellings';

/** The composed graph: each subgraph's SDL and the supergraph SDL, as checked in under schema/. */
export interface Composition {
  subgraphs: Record<string, string>;
  supergraph: string;
  /** schema/enum-spellings.json: per enum, each graph name whose stored (and REST) value differs from it. */
  enumSpellings: EnumSpellings;
}

/** The enum values of a subgraph whose internal value is not their graph name: what the REST bridge translates. */
function spellingsOf(schema: GraphQLSchema, into: EnumSpellings): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isEnumType(type) || type.name.startsWith('__')) continue;
    const differing = type.getValues().filter((value) => typeof value.value === 'string' && value.value !== value.name);
    if (differing.length) into[type.name] = Object.fromEntries(differing.map((value) => [value.name, value.value as string]));
  }
}

/** Builds every subgraph's SDL and composes them; throws with the composer's messages on failure. */
export async function composeSupergraph(): Promise<Composition> {
  const subgraphs: Record<string, string> = {};
  const enumSpellings: EnumSpellings = {};
  for (const definition of SUBGRAPHS) {
    const schema = await buildFederatedSchema(definition.resolvers, definition.referenceResolvers, definition.orphanedTypes);
    subgraphs[definition.name] = printSubgraphSchema(schema) + '\n';
    spellingsOf(schema, enumSpellings);
  }
  const result = composeServices(
    Object.entries(subgraphs).map(([name, sdl]) => ({ name, typeDefs: parse(sdl), url: `local://${name}` })),
  );
  if (result.errors) {
    throw new Error('Supergraph composition failed:\n' + result.errors.map((e) => `- ${e.message}`).join('\n'));
  }
  const sorted = Object.fromEntries(Object.keys(enumSpellings).sort().map((name) => [name, enumSpellings[name]]));
  return { subgraphs, supergraph: result.supergraphSdl, enumSpellings: sorted };
}

async function main(): Promise<void> {
  const { subgraphs, supergraph, enumSpellings } = await composeSupergraph();
  for (const [name, sdl] of Object.entries(subgraphs)) writeFileSync(join(schemaDir(), `${name}.graphql`), sdl);
  writeFileSync(join(schemaDir(), 'supergraph.graphql'), supergraph);
  writeFileSync(join(schemaDir(), 'enum-spellings.json'), JSON.stringify(enumSpellings, null, 2) + '\n');
  console.log(`Composed ${Object.keys(subgraphs).length} subgraphs into schema/supergraph.graphql`);
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
