import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeSupergraph } from '../../../subgraphs/compose';
import { schemaDir } from '../../../schema/paths';

describe('checked-in schema', () => {
  it('matches what `npm run compose` produces (run it after changing a subgraph)', async () => {
    const { subgraphs, supergraph, enumSpellings } = await composeSupergraph();
    for (const [name, sdl] of Object.entries(subgraphs)) {
      expect(readFileSync(join(schemaDir(), `${name}.graphql`), 'utf8')).toBe(sdl);
    }
    expect(readFileSync(join(schemaDir(), 'supergraph.graphql'), 'utf8')).toBe(supergraph);
    expect(JSON.parse(readFileSync(join(schemaDir(), 'enum-spellings.json'), 'utf8'))).toEqual(enumSpellings);
  });
});
