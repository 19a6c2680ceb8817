import { createTestTenant, type TestTenant } from '../utils/e2e';
import { addCard, cardBody, createPatient, gql, send } from '../subgraphs/billing/rest-kit';

const PATH = '/user/patient/payment-methods/create';
const YEAR = new Date().getUTCFullYear() + 3;

// Processor tokens are one tenant's across the database, which outlives a run: each run uses its own.
const run = Math.random().toString(36).slice(2, 10);
const cardToken = `pm_card_1_${run}`;

describe(`POST /user/patient/payment-methods/create (${process.env.E2E_MODE} mode)`, () => {
  let tenant: TestTenant;
  let patientId: string;
  beforeAll(async () => {
    tenant = await createTestTenant('Payment Methods');
    patientId = await createPatient(tenant);
  });

  it("answers the contract's record, field for field; the first method is the default", async () => {
    const patient = await createPatient(tenant, { firstName: 'Grace' });
    const res = await send(tenant, 'POST', `${PATH}?patient_id=${patient}`, { ...cardBody({ paymentMethodId: cardToken, fingerprint: 'fp-grace' }), paymentMethodConfigId: 'pmc_1', metadata: { source: 'kiosk' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      patientId: patient,
      processorPaymentMethodId: cardToken,
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: YEAR,
      accountHolderType: null,
      accountNumberLast4: null,
      bankName: null,
      routingNumber: null,
      description: 'visa ending in 4242',
      type: 'CARD',
      isDefault: true,
      isArchived: false,
    });
    const second = await addCard(tenant, patient, { fingerprint: 'fp-other' });
    expect(second.isDefault).toBe(false);
    const again = await send(tenant, 'POST', `${PATH}?patient_id=${patient}`, cardBody({ fingerprint: 'fp-grace' }));
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(res.body.id);
  });

  it('sends ACH digits as integers (leading zeros are lost, as the contract types them)', async () => {
    const res = await send(tenant, 'POST', `${PATH}?patient_id=${patientId}`, {
      paymentMethodId: `pm_ach_1_${run}`, methodType: 'ACH', ach: { accountHolderType: 'company', accountNumberLast4: '0042', bankName: 'First Bank', routingNumber: '021000021' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'ACH', accountHolderType: 'company', accountNumberLast4: 42, routingNumber: 21000021, bankName: 'First Bank', last4: '0042', brand: null, expMonth: null });
    const wallet = await send(tenant, 'POST', `${PATH}?patient_id=${patientId}`, { paymentMethodId: `pm_w_1_${run}`, methodType: 'wallet_pay', walletPay: { type: 'google_pay', description: 'Pixel wallet' } });
    expect(wallet.body).toMatchObject({ type: 'WALLET_PAY', description: 'Pixel wallet', last4: null });
  });

  it('answers 422 with loc, msg and type only, for every kind of bad request', async () => {
    const post = (query: string, body?: unknown) => send(tenant, 'POST', `${PATH}${query}`, body);
    expect((await post('', cardBody())).body).toEqual({ detail: [{ loc: ['query', 'patient_id'], msg: 'Field required', type: 'missing' }] });
    expect((await post(`?patient_id=${patientId}`)).body).toEqual({ detail: [{ loc: ['body'], msg: 'Field required', type: 'missing' }] });
    expect((await post(`?patient_id=${patientId}`, [1])).body).toEqual({ detail: [{ loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', type: 'model_attributes_type' }] });
    const malformed = await post(`?patient_id=${patientId}`, '{"methodType": ');
    expect(malformed.status).toBe(422);
    expect(malformed.body).toEqual({ detail: [{ loc: ['body', 15], msg: 'JSON decode error', type: 'json_invalid' }] });
    expect((await post(`?patient_id=${patientId}`, { methodType: 'card' })).body).toEqual({ detail: [{ loc: ['body', 'paymentMethodId'], msg: 'Field required', type: 'missing' }] });
    expect((await post(`?patient_id=${patientId}`, { ...cardBody(), methodType: 'cash' })).body).toEqual({
      detail: [{ loc: ['body', 'methodType'], msg: "Input should be 'CARD', 'ACH' or 'WALLET_PAY'", type: 'enum' }],
    });
    expect((await post(`?patient_id=${patientId}`, { paymentMethodId: 'pm', methodType: 'card' })).body).toEqual({ detail: [{ loc: ['body', 'card'], msg: 'Field required', type: 'missing' }] });
    const badCard = await post(`?patient_id=${patientId}`, cardBody({ card: { brand: 'visa', last4: '42', expMonth: 0, expYear: 2020 } }));
    expect(badCard.body).toEqual({
      detail: [
        { loc: ['body', 'card', 'last4'], msg: 'Value error, last4 must be exactly 4 digits', type: 'value_error' },
        { loc: ['body', 'card', 'expMonth'], msg: 'Input should be greater than or equal to 1', type: 'greater_than_equal' },
      ],
    });
    const expired = await post(`?patient_id=${patientId}`, cardBody({ card: { brand: 'visa', last4: '4242', expMonth: 1, expYear: 2020 } }));
    expect(expired.body).toEqual({ detail: [{ loc: ['body', 'card', 'expYear'], msg: 'Value error, the card has expired', type: 'value_error' }] });
    // A value outside a closed set is refused with the other type errors, before the rules that need valid types run.
    const ach = { paymentMethodId: 'pm', methodType: 'ach', ach: { accountHolderType: 'trust', accountNumberLast4: '1234', bankName: 'B', routingNumber: '021000022' } };
    expect((await post(`?patient_id=${patientId}`, ach)).body).toEqual({ detail: [{ loc: ['body', 'ach', 'accountHolderType'], msg: "Input should be 'individual' or 'company'", type: 'enum' }] });
    const badAch = await post(`?patient_id=${patientId}`, { ...ach, ach: { ...ach.ach, accountHolderType: 'Company' } });
    expect(badAch.body).toEqual({ detail: [{ loc: ['body', 'ach', 'routingNumber'], msg: 'Value error, routingNumber fails the ABA checksum', type: 'value_error' }] });
    const badWallet = await post(`?patient_id=${patientId}`, { paymentMethodId: 'pm', methodType: 'wallet_pay', walletPay: { type: 'venmo' } });
    expect(badWallet.body.detail[0]).toEqual({ loc: ['body', 'walletPay', 'type'], msg: expect.stringContaining("'apple_pay', 'google_pay', 'samsung_pay', 'link'"), type: 'enum' });
    const wrongType = await post(`?patient_id=${patientId}`, { ...cardBody(), card: { brand: 'visa', last4: '4242', expMonth: 'twelve', expYear: YEAR } });
    expect(wrongType.body).toEqual({ detail: [{ loc: ['body', 'card', 'expMonth'], msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing' }] });
    const badKey = await send(tenant, 'POST', `${PATH}?patient_id=${patientId}`, cardBody(), { 'Idempotency-Key': 'has space' });
    expect(badKey.body).toEqual({ detail: [{ loc: ['header', 'idempotency-key'], msg: 'Value error, must be 1 to 255 printable ASCII characters', type: 'value_error' }] });
  });

  it('refuses full card and account numbers, never echoing them', async () => {
    const post = (body: unknown) => send(tenant, 'POST', `${PATH}?patient_id=${patientId}`, body);
    const pan = await post({ ...cardBody(), card: { brand: 'visa', last4: '4242424242424242', expMonth: 12, expYear: YEAR } });
    expect(pan.status).toBe(422);
    expect(pan.body).toEqual({
      detail: [{ loc: ['body', 'card', 'last4'], msg: 'Value error, card numbers are never accepted: send the processor token and the last 4 digits', type: 'value_error' }],
    });
    const extraKey = await post({ ...cardBody(), card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: YEAR, number: '4242424242424242' } });
    expect(extraKey.body).toEqual({ detail: [{ loc: ['body', 'card', 'number'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }] });
    const topLevel = await post({ ...cardBody(), cardNumber: '4242424242424242' });
    expect(topLevel.body.detail).toEqual([{ loc: ['body', 'cardNumber'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }]);
    const inMetadata = await post({ ...cardBody(), metadata: { note: '4000 0566 5566 5556' } });
    expect(inMetadata.body.detail).toEqual([{ loc: ['body', 'metadata', 'note'], msg: expect.stringContaining('never accepted'), type: 'value_error' }]);
    const account = await post({ paymentMethodId: 'pm', methodType: 'ach', ach: { accountHolderType: 'individual', accountNumberLast4: '000123456789', bankName: 'B', routingNumber: '021000021' } });
    expect(account.body.detail).toEqual([{ loc: ['body', 'ach', 'accountNumberLast4'], msg: expect.stringContaining('never accepted'), type: 'value_error' }]);
    for (const res of [pan, extraKey, topLevel, inMetadata, account]) expect(res.text).not.toMatch(/4242424242424242|4000 0566|000123456789/);
  });

  it("answers 404 for unknown patients and other tenants' alike, of any shape", async () => {
    const other = await createTestTenant('Payment Methods B');
    const theirs = await createPatient(other);
    for (const id of [theirs, '00000000-0000-4000-8000-000000000000', 'patient-1']) {
      const res = await send(tenant, 'POST', `${PATH}?patient_id=${id}`, cardBody());
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Patient not found' });
    }
  });

  it('resolves Patient.paymentMethods through the gateway (tenant + billing), default first', async () => {
    const patient = await createPatient(tenant, { firstName: 'Fed' });
    const first = await addCard(tenant, patient, { fingerprint: 'f1' });
    const second = await addCard(tenant, patient, { fingerprint: 'f2', card: { brand: 'mastercard', last4: '5454', expMonth: 3, expYear: YEAR } });
    const data = await gql(tenant, 'query($id: ID!) { patient(id: $id) { firstName paymentMethods { id brand last4 isDefault accountNumberLast4 } } }', { id: patient });
    expect(data.patient).toEqual({
      firstName: 'Fed',
      paymentMethods: [
        { id: first.id, brand: 'visa', last4: '4242', isDefault: true, accountNumberLast4: null },
        { id: second.id, brand: 'mastercard', last4: '5454', isDefault: false, accountNumberLast4: null },
      ],
    });
    const list = await gql(tenant, '{ patients(first: 100) { nodes { id paymentMethods { id } } } }');
    expect(list.patients.nodes.find((p: { id: string }) => p.id === patient).paymentMethods).toHaveLength(2);
  });
});
