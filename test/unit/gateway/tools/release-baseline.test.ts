import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeServices } from '@apollo/composition';
import { printSubgraphSchema } from '@apollo/subgraph';
import { graphql, parse, printSchema } from 'graphql';
import { Field, ID, ObjectType, Query, Resolver } from 'type-graphql';
import { describeRefusals } from '../../../../gateway/tools/api-check';
import { apiSchemaOf, currentContracts, readRelease } from '../../../../gateway/tools/api-contract';
import { recordedBreaking, releasedVersions } from '../../../../gateway/tools/changelog';
import { contractChanges, graphChanges, refusals } from '../../../../gateway/tools/contract-diff';
import { buildFederatedSchema } from '../../../../platform/build-federated-schema';
import { repoRoot } from '../../../../schema/paths';

const changelog = () => readFileSync(join(repoRoot(), 'CHANGELOG.md'), 'utf8');

describe('the committed release baseline (schema/releases/)', () => {
  it('belongs to a version the changelog has an entry for', () => {
    expect(releasedVersions(changelog())).toContain(readRelease().version);
  });

  // What CI's `npm run api:check` asks: a change that breaks a client fails here too until CHANGELOG.md records it.
  it('is met by the current code: every breaking change since it is recorded in CHANGELOG.md', async () => {
    const changes = await contractChanges(readRelease(), currentContracts());
    expect(describeRefusals(refusals(changes, recordedBreaking(changelog()), new Date()))).toEqual(['Every breaking change is recorded in CHANGELOG.md.']);
  }, 180_000);
});

@ObjectType()
class Gadget {
  @Field(() => ID)
  id!: string;

  @Field({ nullable: true, deprecationReason: 'Use label. Sunset 2027-03-01.' })
  name?: string;

  @Field({ nullable: true })
  label?: string;
}

@Resolver(() => Gadget)
class GadgetResolver {
  @Query(() => [Gadget])
  gadgets(): Gadget[] {
    return [{ id: '1', name: 'old', label: 'new' }];
  }
}

describe('a field deprecated in a subgraph (type-graphql deprecationReason)', () => {
  it('reaches the API schema clients introspect, and its removal before the sunset is refused', async () => {
    const subgraph = printSubgraphSchema(await buildFederatedSchema([GadgetResolver]));
    const composed = composeServices([{ name: 'gadgets', typeDefs: parse(subgraph), url: 'local://gadgets' }]);
    expect(composed.errors).toBeUndefined();
    const schema = apiSchemaOf(composed.supergraphSdl!);

    const introspection = await graphql({ schema, source: '{ __type(name: "Gadget") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }' });
    expect(introspection.data?.__type).toEqual({
      fields: [
        { name: 'id', isDeprecated: false, deprecationReason: null },
        { name: 'name', isDeprecated: true, deprecationReason: 'Use label. Sunset 2027-03-01.' },
        { name: 'label', isDeprecated: false, deprecationReason: null },
      ],
    });

    const sdl = printSchema(schema);
    expect(sdl).toContain('name: String @deprecated(reason: "Use label. Sunset 2027-03-01.")');
    const changes = await graphChanges(sdl, sdl.replace(/\n\s*name: String @deprecated[^\n]*/, ''));
    expect(changes).toEqual([expect.objectContaining({ criticality: 'BREAKING', coordinate: 'Gadget.name', sunset: '2027-03-01' })]);
    expect(refusals(changes, ['Gadget.name'], new Date('2027-02-28T00:00:00Z'))).toHaveLength(1);
    expect(refusals(changes, ['Gadget.name'], new Date('2027-03-01T00:00:00Z'))).toEqual([]);
  });
});
