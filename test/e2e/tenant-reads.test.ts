import { createTestTenant } from '../utils/e2e';

describe(`tenant reads through every layer (${process.env.E2E_MODE} mode)`, () => {
  it('GET /tenant/public answers the public fields of the caller tenant only', async () => {
    const tenant = await createTestTenant('Riverside Physio');
    const res = await tenant.get('/tenant/public');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: tenant.tenantId,
      name: 'Riverside Physio',
      timezone: 'UTC',
      locale: 'en-US',
      currency: 'USD',
      website: null,
      phone: null,
      primaryColor: null,
      logoUrl: null,
      receiptLogoUrl: null,
    });
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('GET /tenant/private answers the whole record, defaults filled in', async () => {
    const tenant = await createTestTenant('Lakeside Dental');
    const res = await tenant.get('/tenant/private');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: tenant.tenantId,
      name: 'Lakeside Dental',
      legalName: null,
      timezone: 'UTC',
      locale: 'en-US',
      currency: 'USD',
      website: null,
      phone: null,
      contactEmail: null,
      primaryColor: null,
      logoUrl: null,
      receiptLogoUrl: null,
      address: { line1: null, line2: null, city: null, state: null, postalCode: null, country: null },
      settings: { appointmentReminderHours: 24, sendReceiptEmails: true, defaultNoteTemplateId: null },
      livemode: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
  });

  it('GraphQL answers the same records as REST', async () => {
    const tenant = await createTestTenant('Hillview Clinic');
    const publicFields = 'id name timezone locale currency website phone primaryColor logoUrl receiptLogoUrl';
    const privateFields = `id name legalName timezone locale currency website phone contactEmail primaryColor logoUrl receiptLogoUrl
      address { line1 line2 city state postalCode country } settings { appointmentReminderHours sendReceiptEmails defaultNoteTemplateId } livemode createdAt updatedAt`;
    const gql = await tenant.graphql(`{ publicTenant { ${publicFields} } tenant { ${privateFields} } }`);
    expect(gql.status).toBe(200);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.publicTenant).toEqual((await tenant.get('/tenant/public')).body);
    expect(gql.body.data.tenant).toEqual((await tenant.get('/tenant/private')).body);
  });

  it('each tenant sees only itself', async () => {
    const [a, b] = await Promise.all([createTestTenant('Clinic A'), createTestTenant('Clinic B')]);
    expect((await a.get('/tenant/private')).body.id).toBe(a.tenantId);
    expect((await b.get('/tenant/private')).body.id).toBe(b.tenantId);
    expect((await a.get('/tenant/public')).body.name).toBe('Clinic A');
  });

  it('every subgraph is reachable and healthy through the gateway', async () => {
    const tenant = await createTestTenant();
    const res = await tenant.graphql('{ tenantHealth { service database } billingHealth { service database } analyticsHealth { service database } notesHealth { service database } }');
    expect(res.body.data).toEqual({
      tenantHealth: { service: 'tenant', database: true },
      billingHealth: { service: 'billing', database: true },
      analyticsHealth: { service: 'analytics', database: true },
      notesHealth: { service: 'notes', database: true },
    });
  });
});
