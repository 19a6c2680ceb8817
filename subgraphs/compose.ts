import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeServices } from '@apollo/composition';
import { printSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { SUBGRAPHS } from './registry';
import { buildFederatedSchema } from '../platform/build-federated-schema';
import { schemaDir } from '../schema/paths';

/** The composed graph: each subgraph's SDL and the supergraph SDL, as checked in under schema/. */
export interface Composition {
  subgraphs: Record<string, string>;
  supergraph: string;
}

/** Builds every subgraph's SDL and composes them; throws with the composer's messages on failure. */
export async function composeSupergraph(): Promise<Composition> {
  const subgraphs: Record<string, string> = {};
  for (const definition of SUBGRAPHS) {
    const schema = await buildFederatedSchema(definition.resolvers, definition.referenceResolvers, definition.orphanedTypes);
    subgraphs[definition.name] = printSubgraphSchema(schema) + '\n';
  }
  const result = composeServices(
    Object.entries(subgraphs).map(([name, sdl]) => ({ name, typeDefs: parse(sdl), url: `local://${name}` })),
  );
  if (result.errors) {
    throw new Error('Supergraph composition failed:\n' + result.errors.map((e) => `- ${e.message}`).join('\n'));
  }
  return { subgraphs, supergraph: result.supergraphSdl };
}

async function main(): Promise<void> {
  const { subgraphs, supergraph } = await composeSupergraph();
  for (const [name, sdl] of Object.entries(subgraphs)) writeFileSync(join(schemaDir(), `${name}.graphql`), sdl);
  writeFileSync(join(schemaDir(), 'supergraph.graphql'), supergraph);
  console.log(`Composed ${Object.keys(subgraphs).length} subgraphs into schema/supergraph.graphql`);
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
