import { admin, baseUrl, createTestTenant, request, type HttpResult, type TestTenant } from '../utils/e2e';
import { cardBody, createPatient, gql, send } from '../subgraphs/billing/rest-kit';
import { serverLogs } from '../utils/server-logs';

/**
 * Issue 31, finding 6: card numbers were stored in free text (a billing contact, a card brand that
 * was echoed back, metadata keys and text, a number split across a list, dotted or full-width
 * digits) and GraphQL returned them later. One rule now reads every string a mutation is sent
 * (platform/stored-text-rule.ts): a 422 naming the field, the digits never echoed, nothing stored.
 */
const PAN = '4111 1111 1111 1111';
const PAN_DIGITS = /4111.?1111.?1111.?1111|４１１１|4000.?0566/;
const REASON = 'card numbers are never accepted: send the processor token and the last 4 digits';

/** The payment method body variants of the finding, each with where the 422 must point (below `body` / `input`). */
const VARIANTS: { name: string; body: Record<string, unknown>; at: (string | number)[] }[] = [
  { name: 'billingContact.addressLine1', body: { billingContact: { addressLine1: PAN } }, at: ['billingContact', 'addressLine1'] },
  { name: 'billingContact.name', body: { billingContact: { name: PAN } }, at: ['billingContact', 'name'] },
  { name: 'card.brand (was echoed)', body: { card: { brand: 'visa 4111111111111111', last4: '1111', expMonth: 12, expYear: new Date().getUTCFullYear() + 3 } }, at: ['card', 'brand'] },
  { name: 'a metadata key', body: { metadata: { '4111111111111111': 'x' } }, at: ['metadata'] },
  { name: 'metadata text', body: { metadata: { note: 'paid with 4111-1111-1111-1111, thanks' } }, at: ['metadata', 'note'] },
  { name: 'a number split across a list', body: { metadata: { parts: ['4111 1111', '1111 1111'] } }, at: ['metadata', 'parts'] },
  { name: 'dotted digits', body: { billingContact: { addressLine2: '4111.1111.1111.1111' } }, at: ['billingContact', 'addressLine2'] },
  { name: 'full-width digits', body: { billingContact: { city: '４１１１１１１１１１１１１１１１' } }, at: ['billingContact', 'city'] },
  { name: 'a wallet description', body: { methodType: 'wallet_pay', card: undefined, walletPay: { type: 'apple_pay', description: 'card 4000 0566 5566 5556' } }, at: ['walletPay', 'description'] },
];

const PAYMENT_METHODS = 'query($id: ID!) { patient(id: $id) { paymentMethods(includeArchived: true) { id brand description billingContact { name addressLine1 addressLine2 city } metadata } } }';

/** The patient's payment methods as GraphQL reads them (what used to return the PAN). */
async function storedMethods(tenant: TestTenant, patientId: string): Promise<unknown[]> {
  return (await gql(tenant, PAYMENT_METHODS, { id: patientId })).patient.paymentMethods;
}

function expectRefused(res: HttpResult, loc: (string | number)[]): void {
  expect(res.status).toBe(422);
  expect(res.text).not.toMatch(PAN_DIGITS);
  expect(res.body.detail).toContainEqual(expect.objectContaining({ loc, msg: `Value error, ${REASON}`, type: 'value_error' }));
}

describe(`no card number is stored or echoed (${process.env.E2E_MODE} mode)`, () => {
  let tenant: TestTenant;
  let patientId: string;
  beforeAll(async () => {
    tenant = await createTestTenant('Card Numbers');
    patientId = await createPatient(tenant);
  });

  it.each(VARIANTS)('REST payment method: a PAN in $name is a 422 naming the field', async ({ body, at }) => {
    const res = await send(tenant, 'POST', `/user/patient/payment-methods/create?patient_id=${patientId}`, { ...cardBody(), ...body });
    expectRefused(res, ['body', ...at]);
  });

  it.each(VARIANTS)('GraphQL payment method: a PAN in $name is BAD_USER_INPUT naming the field', async ({ body, at }) => {
    // The graph's enum names (CARD, APPLE_PAY) where REST takes the contract's spellings.
    const rest = { ...cardBody(), methodType: 'card', ...body } as Record<string, any>;
    const input = { ...rest, methodType: rest.methodType.toUpperCase(), ...(rest.walletPay ? { walletPay: { ...rest.walletPay, type: rest.walletPay.type.toUpperCase() } } : {}) };
    const res = await tenant.graphql('mutation($p: ID!, $i: CreatePaymentMethodInput!) { createPatientPaymentMethod(patientId: $p, input: $i) { id brand } }', { p: patientId, i: input });
    expect(res.text).not.toMatch(PAN_DIGITS);
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(res.body.errors[0].extensions.validation).toContainEqual({ type: 'value_error', loc: ['input', ...at], msg: `Value error, ${REASON}`, ctx: { error: REASON } });
  });

  it('stored nothing: the GraphQL read returns no method and no PAN, and no server log holds one', async () => {
    const methods = await storedMethods(tenant, patientId);
    expect(methods).toEqual([]);
    expect(serverLogs()).not.toMatch(PAN_DIGITS);
  });

  it('leaves processor-issued identifiers to their own checks, and accepts ordinary numbers in text', async () => {
    const ok = await send(tenant, 'POST', `/user/patient/payment-methods/create?patient_id=${patientId}`, {
      ...cardBody({ fingerprint: 'fp_4242424242424242' }),
      billingContact: { name: 'Ada 2nd', addressLine1: '12 Main St, Suite 4111', phone: '+1 415-555-2671', postalCode: '94105-1234' },
      metadata: { npi: '1234567893', invoice: '202612010002', date: '2026-11-27', luhnless: '4111 1111 1111 1112' },
    });
    expect(ok.status).toBe(200);
    const methods = await storedMethods(tenant, patientId);
    expect(methods).toHaveLength(1);
    expect(JSON.stringify(methods)).not.toMatch(PAN_DIGITS);
  });

  it('applies the same rule to every route that stores text, REST and GraphQL', async () => {
    const post = (path: string, body: unknown) => send(tenant, 'POST', path, body);
    expectRefused(await post('/analytics/dashboards', { name: 'Revenue', description: `paid ${PAN}` }), ['body', 'description']);
    expectRefused(await send(tenant, 'PUT', '/tenant/update', { name: `Clinic ${PAN}` }), ['body', 'name']);
    expectRefused(await admin('/tenants', { method: 'POST', body: JSON.stringify({ name: `Clinic ${PAN}` }) }), ['body', 'name']);
    const campaign = await gql(tenant, 'mutation($i: CreateCampaignInput!) { createCampaign(input: $i) { id webhook { webhookKey } } }', { i: { name: 'Leads', startsAt: '2026-03-01T00:00:00Z' } });
    const lead = (body: unknown) => request(`${baseUrl()}/opportunity/leads/${campaign.createCampaign.webhook.webhookKey}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expectRefused(await lead({ name: PAN }), ['body', 'name']);
    expectRefused(await lead({ name: 'Jane', fields: { comment: `my card is ${PAN}` } }), ['body', 'fields', 'comment']);

    const refusedOnGraphql = async (query: string, variables: Record<string, unknown>, loc: (string | number)[]) => {
      const res = await tenant.graphql(query, variables);
      expect(res.text).not.toMatch(PAN_DIGITS);
      expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', validation: [expect.objectContaining({ loc, type: 'value_error' })] });
    };
    await refusedOnGraphql('mutation($i: IssueGiftCardInput!) { issueGiftCard(input: $i) { id } }', { i: { initialValueCents: 5000, recipientPatientEmail: 'r@example.com', recipientNote: `use ${PAN}` } }, ['input', 'recipientNote']);
    await refusedOnGraphql('mutation($i: CreateNoteTemplateInput!) { createNoteTemplate(input: $i) { id } }', { i: { name: 'Intake', questions: [{ kind: 'TEXT', label: `Card ${PAN}` }] } }, ['input', 'questions', 0, 'label']);
    await refusedOnGraphql('mutation($i: CreatePatientInput!) { createPatient(input: $i) { id } }', { i: { firstName: 'Ada', lastName: PAN.replace(/ /g, '-') } }, ['input', 'lastName']);
    await refusedOnGraphql('mutation($id: ID!, $i: UpdateCampaignInput!) { updateCampaign(id: $id, input: $i) { id } }', { id: campaign.createCampaign.id, i: { description: PAN } }, ['input', 'description']);

    const stored = await gql(tenant, '{ dashboards { nodes { description } } issuedGiftCards { nodes { recipientNote } } noteTemplates { nodes { id questions { label } } } tenant { name } }');
    expect(JSON.stringify(stored)).not.toMatch(PAN_DIGITS);
    expect(serverLogs()).not.toMatch(PAN_DIGITS);
  });
});
