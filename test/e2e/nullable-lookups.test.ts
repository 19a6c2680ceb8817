import { randomUUID } from 'node:crypto';
import { buildSchema, getNullableType, isListType, isNonNullType, isObjectType } from 'graphql';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestTenant, type TestTenant } from '../utils/e2e';

/**
 * Schema style (docs/api.md): a single lookup on Query is nullable, so an unknown id nulls that
 * field alone, with NOT_FOUND in `errors`, and the other fields of the same request keep their data.
 */
const SUPERGRAPH = buildSchema(readFileSync(join(__dirname, '../../schema/supergraph.graphql'), 'utf8'), { assumeValidSDL: true });

/** Query fields taking an `id: ID!` and answering one object: the single lookups the rule covers. */
const LOOKUPS = Object.values(SUPERGRAPH.getQueryType()!.getFields())
  .filter((f) => f.args.some((a) => a.name === 'id') && isObjectType(getNullableType(f.type)) && !isListType(getNullableType(f.type)))
  .map((f) => ({ name: f.name, nonNull: isNonNullType(f.type) }));

describe(`nullable single lookups (${process.env.E2E_MODE} mode)`, () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTestTenant('Nullable Lookups');
  });

  it('covers every single lookup on Query, none of them non-null', () => {
    expect(LOOKUPS.map((l) => l.name)).toEqual(expect.arrayContaining(['dashboard', 'widget', 'campaign', 'patient', 'location', 'provider', 'member', 'issuedGiftCard', 'noteTemplate']));
    expect(LOOKUPS.filter((l) => l.nonNull)).toEqual([]);
  });

  it.each(LOOKUPS.map((l) => l.name))('%s: an unknown id is null beside a sibling that keeps its data, one NOT_FOUND at its path', async (field) => {
    const res = await tenant.graphql(`query($id: ID!) { tenant { id } missing: ${field}(id: $id) { id } }`, { id: randomUUID() });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ tenant: { id: tenant.tenantId }, missing: null });
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatchObject({ path: ['missing'], extensions: { code: 'NOT_FOUND' } });
  });

  it('a known and an unknown dashboard side by side: the known one is answered, the other null with its NOT_FOUND', async () => {
    const created = await tenant.graphql('mutation { createDashboard(input: { name: "Side by side" }) { id name } }');
    const known = created.body.data.createDashboard;
    const res = await tenant.graphql('query($a: ID!, $b: ID!) { known: dashboard(id: $a) { id name } unknown: dashboard(id: $b) { id name } }', { a: known.id, b: randomUUID() });
    expect(res.body.data).toEqual({ known, unknown: null });
    expect(res.body.errors.map((e: { path: string[]; extensions: { code: string } }) => [e.path, e.extensions.code])).toEqual([[['unknown'], 'NOT_FOUND']]);
  });

  it('REST still answers an unknown id 404', async () => {
    for (const path of [`/analytics/dashboards/${randomUUID()}`, `/analytics/widgets/${randomUUID()}`]) {
      const res = await tenant.get(path);
      expect([path, res.status]).toEqual([path, 404]);
    }
  });
});
