import { createTestTenant, request, type TestTenant } from '../utils/e2e';

const CREATE_LOCATION = 'mutation($i: CreateLocationInput!) { createLocation(input: $i) { id name isVirtual city country createdAt partnerLocationId } }';
const CREATE_PROVIDER = 'mutation($i: CreateProviderInput!) { createProvider(input: $i) { id firstName lastName title npi locationIds locations { id name } } }';
const CREATE_PATIENT = 'mutation($i: CreatePatientInput!) { createPatient(input: $i) { id firstName lastName email phone dateOfBirth createdAt updatedAt } }';

async function ok(tenant: TestTenant, query: string, variables?: Record<string, unknown>) {
  const res = await tenant.graphql(query, variables);
  expect(res.body.errors).toBeUndefined();
  return res.body.data;
}

describe(`the practice directory through the gateway (${process.env.E2E_MODE} mode)`, () => {
  it('creates, reads and lists locations, providers and patients', async () => {
    const tenant = await createTestTenant('Directory Clinic');
    const { createLocation: clinic } = await ok(tenant, CREATE_LOCATION, { i: { name: 'Main', addressLineOne: '1 Main St', city: 'Eugene', country: 'US' } });
    const { createLocation: virtual } = await ok(tenant, CREATE_LOCATION, { i: { name: 'Video visits', isVirtual: true } });
    expect(virtual).toMatchObject({ isVirtual: true, city: null });
    const { createProvider: provider } = await ok(tenant, CREATE_PROVIDER, { i: { firstName: 'Maya', lastName: 'Okafor', title: 'PT, DPT', npi: '1234567893', locationIds: [virtual.id, clinic.id] } });
    expect(provider.locations.map((l: { name: string }) => l.name)).toEqual(['Main', 'Video visits']);
    const { createPatient: patient } = await ok(tenant, CREATE_PATIENT, { i: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', dateOfBirth: '1985-12-10' } });
    expect(patient).toMatchObject({ firstName: 'Ada', dateOfBirth: '1985-12-10', phone: null });

    const lists = await ok(tenant, '{ locations { totalCount nodes { id } } providers { totalCount nodes { id } } patients { totalCount pageInfo { hasNextPage hasPreviousPage } nodes { id } } }');
    expect(lists.locations.totalCount).toBe(2);
    expect(lists.providers).toEqual({ totalCount: 1, nodes: [{ id: provider.id }] });
    expect(lists.patients).toEqual({ totalCount: 1, pageInfo: { hasNextPage: false, hasPreviousPage: false }, nodes: [{ id: patient.id }] });
    const one = await ok(tenant, 'query($p: ID!, $l: ID!, $v: ID!) { patient(id: $p) { id lastName } location(id: $l) { name } provider(id: $v) { lastName } }', { p: patient.id, l: clinic.id, v: provider.id });
    expect(one).toEqual({ patient: { id: patient.id, lastName: 'Lovelace' }, location: { name: 'Main' }, provider: { lastName: 'Okafor' } });
  });

  it('validates creation with the 422 vocabulary in extensions', async () => {
    const tenant = await createTestTenant();
    const res = await tenant.graphql(CREATE_PATIENT, { i: { firstName: '', lastName: 'X', email: 'nope', dateOfBirth: '2999-01-01' } });
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(res.body.errors[0].extensions.validation.map((v: { loc: string[] }) => v.loc.join('.'))).toEqual(['input.firstName', 'input.email', 'input.dateOfBirth']);
    // PHI stays out of the message: it names fields and rules only.
    expect(res.body.errors[0].message).not.toContain('nope');
  });

  it("treats another tenant's ids exactly like unknown ones", async () => {
    const [a, b] = await Promise.all([createTestTenant('Dir A'), createTestTenant('Dir B')]);
    const { createPatient: theirs } = await ok(b, CREATE_PATIENT, { i: { firstName: 'Bo', lastName: 'Bee' } });
    const { createLocation: theirPlace } = await ok(b, CREATE_LOCATION, { i: { name: 'B place', isVirtual: true } });
    for (const id of [theirs.id, '00000000-0000-4000-8000-000000000000', 'x']) {
      const res = await a.graphql('query($id: ID!) { patient(id: $id) { id } }', { id });
      expect(res.body.errors[0]).toMatchObject({ message: 'Patient not found', extensions: { code: 'NOT_FOUND' } });
    }
    const res = await a.graphql('query($id: ID!) { location(id: $id) { id } }', { id: theirPlace.id });
    expect(res.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await ok(a, '{ patients { totalCount } locations { totalCount } }'))).toEqual({ patients: { totalCount: 0 }, locations: { totalCount: 0 } });
    const linked = await a.graphql(CREATE_PROVIDER, { i: { firstName: 'A', lastName: 'B', locationIds: [theirPlace.id] } });
    expect(linked.body.errors[0].extensions.validation[0]).toMatchObject({ loc: ['input', 'locationIds', 0], msg: 'Value error, unknown location' });
  });

  it('seeds the demo directory for a demo tenant', async () => {
    const created = await request(`${process.env.E2E_BASE_URL}/admin/tenants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${process.env.E2E_OPERATOR_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Demo Directory', demoData: true }),
    });
    expect(created.status).toBe(201);
    const headers = { TENANT: created.body.tenant.id, 'API-KEY': created.body.apiKey, 'content-type': 'application/json' };
    const res = await request(`${process.env.E2E_BASE_URL}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: '{ locations { totalCount } providers { totalCount } patients { totalCount } }' }) });
    expect(res.body.data).toEqual({ locations: { totalCount: 3 }, providers: { totalCount: 6 }, patients: { totalCount: 40 } });
  });

  // Only distributed mode has a tenant subgraph service to call; all-in-one covers _entities in test/subgraphs/tenant.
  if (process.env.E2E_MODE === 'distributed') it('the tenant subgraph service resolves _entities for the calling tenant only', async () => {
    const [a, b] = await Promise.all([createTestTenant(), createTestTenant()]);
    const { createPatient: own } = await ok(a, CREATE_PATIENT, { i: { firstName: 'Own', lastName: 'Patient' } });
    const { createPatient: foreign } = await ok(b, CREATE_PATIENT, { i: { firstName: 'Other', lastName: 'Patient' } });
    const res = await request(`${process.env.E2E_SUBGRAPH_TENANT_URL}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-secret': process.env.E2E_INTERNAL_SECRET!, 'x-tenant-id': a.tenantId },
      body: JSON.stringify({
        query: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Patient { id firstName } } }',
        variables: { r: [{ __typename: 'Patient', id: own.id }, { __typename: 'Patient', id: foreign.id }] },
      }),
    });
    expect(res.body).toEqual({ data: { _entities: [{ id: own.id, firstName: 'Own' }, null] } });
  });
});
