import { baseUrl, createTestTenant, request, type TestTenant } from '../utils/e2e';

/** PUT /tenant/update with a raw body. */
const put = (tenant: TestTenant, body: string) =>
  request(`${baseUrl()}/tenant/update`, { method: 'PUT', headers: { ...tenant.headers, 'content-type': 'application/json' }, body });

const valueError = (field: string[], reason: string, input: unknown) => ({
  type: 'value_error',
  loc: ['body', ...field],
  msg: `Value error, ${reason}`,
  input,
  ctx: { error: reason },
});

describe(`PUT /tenant/update (${process.env.E2E_MODE} mode)`, () => {
  it('changes only the fields sent and answers the whole tenant, as GET /tenant/private then shows', async () => {
    const tenant = await createTestTenant('Update Clinic');
    const before = (await tenant.get('/tenant/private')).body;
    const res = await put(
      tenant,
      JSON.stringify({
        timezone: 'America/New_York',
        primaryColor: '#0e7c66',
        website: 'https://update.example.com',
        contactEmail: 'desk@update.example.com',
        address: { line1: '9 Elm St', city: 'Boston', country: 'us' },
        settings: { appointmentReminderHours: 48 },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...before,
      timezone: 'America/New_York',
      primaryColor: '#0E7C66',
      website: 'https://update.example.com',
      contactEmail: 'desk@update.example.com',
      address: { line1: '9 Elm St', line2: null, city: 'Boston', state: null, postalCode: null, country: 'US' },
      settings: { appointmentReminderHours: 48, sendReceiptEmails: true, defaultNoteTemplateId: null },
      updatedAt: expect.any(String),
    });
    expect(new Date(res.body.updatedAt).getTime()).toBeGreaterThan(new Date(before.updatedAt).getTime());
    expect((await tenant.get('/tenant/private')).body).toEqual(res.body);
    const second = await put(tenant, JSON.stringify({ name: 'Renamed', address: { line2: 'Floor 2' }, settings: { sendReceiptEmails: false } }));
    expect(second.body).toMatchObject({
      name: 'Renamed',
      timezone: 'America/New_York',
      address: { line1: '9 Elm St', line2: 'Floor 2', city: 'Boston' },
      settings: { appointmentReminderHours: 48, sendReceiptEmails: false },
    });
    expect((await tenant.get('/tenant/public')).body).toMatchObject({ name: 'Renamed', primaryColor: '#0E7C66', timezone: 'America/New_York' });
    const cleared = await put(tenant, JSON.stringify({ website: null, address: null }));
    expect(cleared.body).toMatchObject({ website: null, address: { line1: null, city: null, country: null } });
  });

  it.each([
    [{ timezone: 'Mars/Base' }, valueError(['timezone'], 'timezone must be an IANA time zone name, e.g. America/New_York', 'Mars/Base')],
    [{ timezone: '+02:00' }, valueError(['timezone'], 'timezone must be an IANA time zone name, e.g. America/New_York', '+02:00')],
    [{ contactEmail: 'not-an-email' }, valueError(['contactEmail'], 'contactEmail must be a valid e-mail address', 'not-an-email')],
    [{ website: 'ftp://files.example.com' }, valueError(['website'], 'website must be an http or https URL', 'ftp://files.example.com')],
    [{ website: 'clinic' }, valueError(['website'], 'website must be an http or https URL', 'clinic')],
    [{ primaryColor: 'red' }, valueError(['primaryColor'], 'primaryColor must be a hex colour #RRGGBB', 'red')],
    [{ primaryColor: '#12345' }, valueError(['primaryColor'], 'primaryColor must be a hex colour #RRGGBB', '#12345')],
    [{ name: '' }, valueError(['name'], 'name must be 1 to 200 characters', '')],
    [{ name: '   ' }, valueError(['name'], 'name must be 1 to 200 characters', '   ')],
    [{ name: null }, { type: 'string_type', loc: ['body', 'name'], msg: 'Input should be a valid string', input: null }],
    [{ currency: 'DOLLARS' }, valueError(['currency'], 'currency must be an ISO 4217 code, e.g. USD', 'DOLLARS')],
    [{ address: { country: 'XX' } }, valueError(['address', 'country'], 'country must be an ISO 3166-1 alpha-2 code, e.g. US', 'XX')],
    [
      { settings: { appointmentReminderHours: -1 } },
      { type: 'greater_than_equal', loc: ['body', 'settings', 'appointmentReminderHours'], msg: 'Input should be greater than or equal to 0', input: -1, ctx: { ge: 0 } },
    ],
    [{ unknown: 1 }, { type: 'extra_forbidden', loc: ['body', 'unknown'], msg: 'Extra inputs are not permitted', input: 1 }],
    [{ address: { street: 'x' } }, { type: 'extra_forbidden', loc: ['body', 'address', 'street'], msg: 'Extra inputs are not permitted', input: 'x' }],
    [{ name: 42 }, { type: 'string_type', loc: ['body', 'name'], msg: 'Input should be a valid string', input: 42 }],
  ])('refuses %j with the contract body and writes nothing', async (body, issue) => {
    const tenant = await createTestTenant('Strict Clinic');
    const before = (await tenant.get('/tenant/private')).body;
    const res = await put(tenant, JSON.stringify({ phone: '+1 555 010 0199', ...body }));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [issue] });
    expect((await tenant.get('/tenant/private')).body).toEqual(before);
  });

  it('lists every problem at once, in field order', async () => {
    const tenant = await createTestTenant();
    const res = await put(tenant, JSON.stringify({ name: '', timezone: 'Nowhere', primaryColor: 'blue', extra: true }));
    expect(res.status).toBe(422);
    // Unknown fields are the bridge's (schema) check and come first; the domain rules run only on a well-formed body.
    expect(res.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual(['body.extra']);
    const domain = await put(tenant, JSON.stringify({ name: '', timezone: 'Nowhere', primaryColor: 'blue' }));
    expect(domain.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual(['body.name', 'body.timezone', 'body.primaryColor']);
  });

  it('refuses a missing, non-object or malformed body', async () => {
    const tenant = await createTestTenant();
    const noBody = await request(`${baseUrl()}/tenant/update`, { method: 'PUT', headers: tenant.headers });
    expect(noBody.body).toEqual({ detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] });
    expect((await put(tenant, '[1]')).body).toEqual({
      detail: [{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: [1] }],
    });
    expect((await put(tenant, '{"name": ')).body.detail[0]).toMatchObject({ type: 'json_invalid', loc: ['body', 9] });
    const empty = await put(tenant, '{}');
    expect(empty.status).toBe(200);
  });

  it('GraphQL updateTenant gives the same result and the same errors', async () => {
    const tenant = await createTestTenant();
    const ok = await tenant.graphql('mutation($i: UpdateTenantInput!) { updateTenant(input: $i) { id timezone locale } }', { i: { timezone: 'Europe/Berlin', locale: 'de-de' } });
    expect(ok.body.data.updateTenant).toEqual({ id: tenant.tenantId, timezone: 'Europe/Berlin', locale: 'de-DE' });
    const bad = await tenant.graphql('mutation($i: UpdateTenantInput!) { updateTenant(input: $i) { id } }', { i: { timezone: 'Nowhere' } });
    expect(bad.body.errors[0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      validation: [
        {
          type: 'value_error',
          loc: ['input', 'timezone'],
          msg: 'Value error, timezone must be an IANA time zone name, e.g. America/New_York',
          input: 'Nowhere',
          ctx: { error: 'timezone must be an IANA time zone name, e.g. America/New_York' },
        },
      ],
    });
  });

  it("never touches another tenant's record", async () => {
    const [a, b] = await Promise.all([createTestTenant('Tenant A'), createTestTenant('Tenant B')]);
    await put(a, JSON.stringify({ name: 'A renamed' }));
    expect((await b.get('/tenant/private')).body.name).toBe('Tenant B');
  });
});
