import { issuesOf, startTenantKit, type TenantSubgraphKit } from './subgraph-kit';

const LOCATION = 'id isVirtual name addressLineOne addressLineTwo city state zipCode country createdAt partnerLocationId';

describe('tenant subgraph directory (real PostgreSQL)', () => {
  let kit: TenantSubgraphKit;
  let a: string;
  let b: string;

  beforeAll(async () => {
    kit = await startTenantKit();
    a = await kit.tenant('Directory A');
    b = await kit.tenant('Directory B');
  });
  afterAll(() => kit.close());

  const createLocation = async (tenantId: string, input: Record<string, unknown>) => {
    const result = await kit.run(tenantId, `mutation($i: CreateLocationInput!) { createLocation(input: $i) { ${LOCATION} } }`, { i: input });
    expect(result.errors).toBeUndefined();
    return result.data.createLocation;
  };

  it('creates a location with every field of the contract', async () => {
    const location = await createLocation(a, { name: 'Harbor Clinic', addressLineOne: '1 Pier Rd', city: 'Astoria', state: 'OR', zipCode: '97103', country: 'us', partnerLocationId: 'P-9' });
    expect(location).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      isVirtual: false,
      name: 'Harbor Clinic',
      addressLineOne: '1 Pier Rd',
      addressLineTwo: null,
      city: 'Astoria',
      state: 'OR',
      zipCode: '97103',
      country: 'US',
      createdAt: expect.any(String),
      partnerLocationId: 'P-9',
    });
    const read = await kit.run(a, `query($id: ID!) { location(id: $id) { ${LOCATION} } }`, { id: location.id });
    expect(read.data.location).toEqual(location);
  });

  it('links providers only to the tenant’s own locations', async () => {
    const mine = await createLocation(a, { name: 'Mine', isVirtual: true });
    const theirs = await createLocation(b, { name: 'Theirs', isVirtual: true });
    const query = `mutation($i: CreateProviderInput!) { createProvider(input: $i) { id firstName locationIds locations { id } } }`;
    const refused = await kit.run(a, query, { i: { firstName: 'Ana', lastName: 'Silva', locationIds: [mine.id, theirs.id, 'nope'] } });
    expect(issuesOf(refused)).toEqual([
      { type: 'value_error', loc: ['input', 'locationIds', 1], msg: 'Value error, unknown location', input: theirs.id, ctx: { error: 'unknown location' } },
      { type: 'value_error', loc: ['input', 'locationIds', 2], msg: 'Value error, unknown location', input: 'nope', ctx: { error: 'unknown location' } },
    ]);
    const created = await kit.run(a, query, { i: { firstName: 'Ana', lastName: 'Silva', title: 'PT', npi: '1234567893', locationIds: [mine.id] } });
    expect(created.data.createProvider).toMatchObject({ firstName: 'Ana', locationIds: [mine.id], locations: [{ id: mine.id }] });
    const byLocation = await kit.run(a, `query($l: ID) { providers(locationId: $l) { totalCount nodes { id } } }`, { l: mine.id });
    expect(byLocation.data.providers).toEqual({ totalCount: 1, nodes: [{ id: created.data.createProvider.id }] });
    const elsewhere = await kit.run(a, `query($l: ID) { providers(locationId: $l) { totalCount } }`, { l: 'not-a-uuid' });
    expect(elsewhere.data.providers.totalCount).toBe(0);
  });

  it('pages and searches patients by name or e-mail, every word matching', async () => {
    const tenant = await kit.tenant('Patients');
    for (const [firstName, lastName, email] of [
      ['Ada', 'Lovelace', 'ada@example.com'],
      ['Grace', 'Hopper', 'grace@example.com'],
      ['Alan', 'Turing', null],
      ['Ada', 'Byron', 'ab_100%@example.com'],
    ]) {
      const result = await kit.run(tenant, `mutation($i: CreatePatientInput!) { createPatient(input: $i) { id } }`, { i: { firstName, lastName, email, dateOfBirth: '1980-05-17' } });
      expect(result.errors).toBeUndefined();
    }
    const page = await kit.run(tenant, `{ patients(first: 3) { totalCount pageInfo { hasNextPage hasPreviousPage } nodes { lastName } } }`);
    expect(page.data.patients).toEqual({ totalCount: 4, pageInfo: { hasNextPage: true, hasPreviousPage: false }, nodes: [{ lastName: 'Byron' }, { lastName: 'Hopper' }, { lastName: 'Lovelace' }] });
    const desc = await kit.run(tenant, `{ patients(sortDirection: DESC, first: 1) { nodes { lastName } } }`);
    expect(desc.data.patients.nodes).toEqual([{ lastName: 'Turing' }]);
    const search = async (text: string) => (await kit.run(tenant, `query($s: String) { patients(search: $s) { nodes { firstName lastName } } }`, { s: text })).data.patients.nodes;
    expect(await search('ada love')).toEqual([{ firstName: 'Ada', lastName: 'Lovelace' }]);
    expect(await search('GRACE@')).toEqual([{ firstName: 'Grace', lastName: 'Hopper' }]);
    // LIKE wildcards in the search are literal characters.
    expect(await search('100%')).toEqual([{ firstName: 'Ada', lastName: 'Byron' }]);
    expect(await search('%')).toEqual([{ firstName: 'Ada', lastName: 'Byron' }]);
    const bad = await kit.run(tenant, `{ patients(first: 500) { totalCount } }`);
    expect(issuesOf(bad)).toEqual([{ type: 'less_than_equal', loc: ['first'], msg: 'Input should be less than or equal to 100', input: 500, ctx: { le: 100 } }]);
  });

  it('answers NOT_FOUND for another tenant’s patient, an unknown id and a malformed one alike', async () => {
    const created = await kit.run(b, `mutation { createPatient(input: {firstName: "Bo", lastName: "Bee"}) { id } }`);
    const id = created.data.createPatient.id;
    for (const probe of [id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const result = await kit.run(a, `query($id: ID!) { patient(id: $id) { id } }`, { id: probe });
      expect(result.errors?.[0].message).toBe('Patient not found');
      expect(result.errors?.[0].originalError?.constructor.name).toBe('NotFoundError');
    }
    expect((await kit.run(b, `query($id: ID!) { patient(id: $id) { firstName } }`, { id })).data.patient).toEqual({ firstName: 'Bo' });
    expect((await kit.run(a, `{ patients { nodes { id } } }`)).data.patients.nodes.map((p: { id: string }) => p.id)).not.toContain(id);
  });

  it('resolves Location, Provider and Patient references for their own tenant only (federation _entities)', async () => {
    const tenant = await kit.tenant('Entities');
    await kit.subgraph.seedDemo(tenant);
    const other = await kit.tenant('Entities other');
    await kit.subgraph.seedDemo(other);
    const ids = async (t: string) => {
      const data = (await kit.run(t, '{ locations { nodes { id } } providers { nodes { id } } patients(first: 1) { nodes { id } } }')).data;
      return { location: data.locations.nodes[0].id, provider: data.providers.nodes[0].id, patient: data.patients.nodes[0].id };
    };
    const own = await ids(tenant);
    const foreign = await ids(other);
    const query = `query($r: [_Any!]!) { _entities(representations: $r) {
      ... on Location { id name } ... on Provider { id lastName locationIds } ... on Patient { id lastName } } }`;
    const result = await kit.run(tenant, query, {
      r: [
        { __typename: 'Location', id: own.location },
        { __typename: 'Provider', id: own.provider },
        { __typename: 'Patient', id: own.patient },
        { __typename: 'Location', id: foreign.location },
        { __typename: 'Provider', id: foreign.provider },
        { __typename: 'Patient', id: foreign.patient },
        { __typename: 'Patient', id: 'garbage' },
      ],
    });
    expect(result.errors).toBeUndefined();
    const entities = result.data._entities;
    expect(entities.slice(0, 3).map((e: { id: string }) => e.id)).toEqual([own.location, own.provider, own.patient]);
    expect(entities[1].locationIds.length).toBeGreaterThan(0);
    expect(entities.slice(3)).toEqual([null, null, null, null]);
    const anonymous = await kit.run(null, query, { r: [{ __typename: 'Patient', id: own.patient }] });
    expect(anonymous.data._entities).toEqual([null]);
  });

  it('seeds a realistic clinic: 3 locations (one virtual), 6 providers, 40 distinct patients', async () => {
    const tenant = await kit.tenant('Seeded');
    await kit.subgraph.seedDemo(tenant);
    const data = (await kit.run(tenant, '{ locations { totalCount nodes { isVirtual } } providers { totalCount } patients(first: 100) { totalCount nodes { firstName lastName dateOfBirth } } tenant { timezone address { city } } }')).data;
    expect(data.locations.totalCount).toBe(3);
    expect(data.locations.nodes.filter((l: { isVirtual: boolean }) => l.isVirtual)).toHaveLength(1);
    expect(data.providers.totalCount).toBe(6);
    expect(data.patients.totalCount).toBe(40);
    expect(new Set(data.patients.nodes.map((p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`)).size).toBe(40);
    expect(data.patients.nodes.every((p: { dateOfBirth: string }) => /^\d{4}-\d{2}-\d{2}$/.test(p.dateOfBirth))).toBe(true);
    expect(data.tenant).toEqual({ timezone: 'America/New_York', address: { city: 'Portland' } });
  });
});
