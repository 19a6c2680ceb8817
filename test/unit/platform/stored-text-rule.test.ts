import { graphql, type GraphQLSchema } from 'graphql';
import { JSONResolver } from 'graphql-scalars';
import { Arg, Field, ID, InputType, Mutation, Query, Resolver } from 'type-graphql';
import { ValidationError } from '../../../schema/errors';
import { buildFederatedSchema } from '../../../platform/build-federated-schema';
import { NotFreeText } from '../../../platform/stored-text-rule';

@InputType('StoredTextProbeInput')
class ProbeInput {
  @Field() text!: string;
  @Field(() => [String], { nullable: true }) parts?: string[];
  @Field(() => String, { nullable: true }) @NotFreeText('processor-issued') token?: string;
  @Field(() => JSONResolver, { nullable: true }) meta?: unknown;
  @Field(() => ID, { nullable: true }) ref?: string;
  @Field(() => [ID], { nullable: true }) refs?: string[];
}

@Resolver()
class ProbeResolver {
  @Query(() => String)
  search(@Arg('text') text: string): string {
    return `found ${text.length}`;
  }

  @Mutation(() => String)
  save(@Arg('input', () => ProbeInput) _input: ProbeInput, @Arg('label', () => String, { nullable: true }) _label?: string): string {
    return 'saved';
  }
}

const PAN = '4111 1111 1111 1111';

// The card number rule as every subgraph gets it from buildFederatedSchema (platform/stored-text-rule.ts).
describe('the card number rule on mutations', () => {
  let schema: GraphQLSchema;
  beforeAll(async () => {
    schema = await buildFederatedSchema([ProbeResolver]);
  });
  const save = (input: Record<string, unknown>, label?: string) =>
    graphql({ schema, source: 'mutation($i: StoredTextProbeInput!, $l: String) { save(input: $i, label: $l) }', variableValues: { i: { text: 'ok', ...input }, l: label } });
  const locs = (result: Awaited<ReturnType<typeof save>>) => {
    const error = result.errors?.[0]?.originalError;
    return error instanceof ValidationError ? error.issues.map((i) => i.loc) : result.errors;
  };

  it('refuses a card number in any string of any argument, naming it, before the resolver runs', async () => {
    expect(locs(await save({ text: `card ${PAN}` }))).toEqual([['input', 'text']]);
    expect(locs(await save({}, PAN))).toEqual([['label']]);
    expect(locs(await save({ meta: { deep: [{ note: PAN.replace(/ /g, '.') }] } }))).toEqual([['input', 'meta', 'deep', 0, 'note']]);
    expect(locs(await save({ meta: { [PAN]: 'x' } }))).toEqual([['input', 'meta']]);
    expect(locs(await save({ meta: { n: 4111111111111111 } }))).toEqual([['input', 'meta', 'n']]);
  });

  it('reads a list of strings joined, so a number split across elements is found at the list', async () => {
    expect(locs(await save({ parts: ['4111 1111', '1111 1111'] }))).toEqual([['input', 'parts']]);
    expect(locs(await save({ meta: { parts: ['4111', '1111', '1111', '1111'] } }))).toEqual([['input', 'meta', 'parts']]);
    expect((await save({ parts: ['415-555-2671', '2026-11-27'] })).data).toEqual({ save: 'saved' });
  });

  it('never echoes the digits', async () => {
    const result = await save({ text: PAN, meta: { [PAN]: PAN } });
    expect(JSON.stringify(result.errors?.[0]?.originalError)).not.toMatch(/4111/);
    expect(result.errors?.[0]?.message).not.toMatch(/4111/);
  });

  it('skips fields marked NotFreeText, and queries (nothing is stored)', async () => {
    expect((await save({ token: `tok_${PAN}` })).data).toEqual({ save: 'saved' });
    expect((await graphql({ schema, source: 'query($t: String!) { search(text: $t) }', variableValues: { t: PAN } })).data).toEqual({ search: 'found 19' });
  });

  it('reads no UUID typed ID: our identifiers are looked up, not stored as text (a random UUID once read as a card)', async () => {
    const uuid = 'b4226776-5552-42e7-b4f5-fa3e1f8ef2c0';
    expect((await save({ ref: uuid, refs: [uuid, '4111 1111', '1111 1111'] })).errors).toBeUndefined();
    expect((await save({ meta: { widgets: [uuid] } })).errors).toBeUndefined();
  });

  it("reads an ID that is not a UUID (another system's id, stored as sent), each on its own", async () => {
    expect(locs(await save({ ref: PAN.replace(/ /g, '') }))).toEqual([['input', 'ref']]);
    expect(locs(await save({ refs: ['loc-7', PAN] }))).toEqual([['input', 'refs', 1]]);
    expect((await save({ ref: 'partner-4111-1111' })).errors).toBeUndefined();
  });
});
