import { createTestTenant } from '../utils/e2e';
import { createLocation, gql } from '../subgraphs/billing/rest-kit';

const CREATE = 'mutation($i: CreateMerchantAccountInput!) { createMerchantAccount(input: $i) { id isDefault } }';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
// Processor ids are one tenant's across the database, which outlives a run: each run uses its own.
const run = Math.random().toString(36).slice(2, 10);
const [clinic, tele, theirsAcct] = ['clinic', 'tele', 'b'].map((name) => `acct_${name}_${run}`);
const fees = { cardProcessingFee: 2.9, perTransactionFeeCents: 30, inPersonCardProcessingFee: 2.6, inPersonPerTransactionFeeCents: 10 };

describe(`GET /billing/merchant_accounts (${process.env.E2E_MODE} mode)`, () => {
  it('answers every account with all contract fields and its locations resolved from the tenant subgraph', async () => {
    const tenant = await createTestTenant('Merchants');
    expect((await tenant.get('/billing/merchant_accounts')).body).toEqual([]);
    const main = await createLocation(tenant, { name: 'Harbor', addressLineTwo: 'Suite 2', state: 'OR', zipCode: '97201', country: 'US', partnerLocationId: 'EHR-1' });
    const tele = await createLocation(tenant, { name: 'Video', isVirtual: true, addressLineOne: null, city: null });
    await gql(tenant, CREATE, { i: { name: 'Clinic', processorAccountId: clinic, ...fees, locationIds: [main] } });
    await gql(tenant, CREATE, { i: { name: 'Telehealth', processorAccountId: tele, ...fees, cardProcessingFee: 3.1, locationIds: [tele, main] } });
    const res = await tenant.get('/billing/merchant_accounts');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: clinic, name: 'Clinic', isDefault: true, cardProcessingFee: 2.9, perTransactionFee: 30, inPersonCardProcessingFee: 2.6, inPersonPerTransactionFee: 10,
        createdDate: expect.stringMatching(ISO), updatedDate: expect.stringMatching(ISO),
        locations: [{ id: main, isVirtual: false, name: 'Harbor', addressLineOne: '1 Main St', addressLineTwo: 'Suite 2', city: 'Portland', state: 'OR', zipCode: '97201', country: 'US', createdDate: expect.stringMatching(ISO), partnerLocationId: 'EHR-1' }],
      },
      {
        id: tele, name: 'Telehealth', isDefault: false, cardProcessingFee: 3.1, perTransactionFee: 30, inPersonCardProcessingFee: 2.6, inPersonPerTransactionFee: 10,
        createdDate: expect.stringMatching(ISO), updatedDate: expect.stringMatching(ISO),
        locations: expect.arrayContaining([expect.objectContaining({ id: tele, isVirtual: true, addressLineOne: null }), expect.objectContaining({ id: main, name: 'Harbor' })]),
      },
    ]);
    const moved = await gql(tenant, 'mutation($id: ID!) { setDefaultMerchantAccount(id: $id) { id isDefault } }', { id: tele });
    expect(moved.setDefaultMerchantAccount).toEqual({ id: tele, isDefault: true });
    expect((await tenant.get('/billing/merchant_accounts')).body.map((m: { id: string; isDefault: boolean }) => [m.id, m.isDefault])).toEqual([[tele, true], [clinic, false]]);
    const location = await gql(tenant, 'query($id: ID!) { location(id: $id) { name merchantAccounts { id } } }', { id: main });
    expect(location.location).toEqual({ name: 'Harbor', merchantAccounts: [{ id: tele }, { id: clinic }] });
  });

  it('opens one account at the processor for a retried opening with the same idempotencyKey', async () => {
    const tenant = await createTestTenant('Merchants keyed');
    const first = await gql(tenant, CREATE, { i: { name: 'Opened', idempotencyKey: 'opening-1', ...fees } });
    const retried = await gql(tenant, CREATE, { i: { name: 'Opened', idempotencyKey: 'opening-1', ...fees } });
    expect(retried.createMerchantAccount).toEqual(first.createMerchantAccount);
    expect(first.createMerchantAccount.id).toMatch(/^acct_sandbox_[0-9a-f]{16}$/);
    expect((await tenant.get('/billing/merchant_accounts')).body.map((m: { id: string }) => m.id)).toEqual([first.createMerchantAccount.id]);
  });

  it("shows nothing of another tenant's accounts, and refuses its locations", async () => {
    const [a, b] = await Promise.all([createTestTenant('Merchants A'), createTestTenant('Merchants B')]);
    const theirs = await createLocation(b);
    await gql(b, CREATE, { i: { name: 'B', processorAccountId: theirsAcct, ...fees, locationIds: [theirs] } });
    expect((await a.get('/billing/merchant_accounts')).body).toEqual([]);
    const refused = await a.graphql(CREATE, { i: { name: 'A', ...fees, locationIds: [theirs] } });
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', validation: [{ loc: ['input', 'locationIds', 0], msg: 'Value error, unknown location' }] });
    const located = await a.graphql('query($id: ID!) { location(id: $id) { merchantAccounts { id } } }', { id: theirs });
    expect(located.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
