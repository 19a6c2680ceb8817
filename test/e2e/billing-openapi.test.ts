import { baseUrl, request } from '../utils/e2e';

describe(`OpenAPI for the billing routes (${process.env.E2E_MODE} mode)`, () => {
  let doc: any;
  beforeAll(async () => {
    doc = (await request(`${baseUrl()}/openapi.json`)).body;
  });

  it('documents the four endpoints of contract parts 4.4, 4.6, 4.7 and 4.8, in that order', () => {
    const paths = Object.keys(doc.paths);
    const order = ['/user/patient/payment-methods/create', '/billing/gift-cards/issued/{gift_card_id}/activate', '/inventory/members/manual-payment', '/billing/merchant_accounts'];
    expect(order.map((p) => paths.indexOf(p))).toEqual([...order.map((p) => paths.indexOf(p))].sort((x, y) => x - y));
    expect(paths.indexOf('/user/patient/payment-methods/create')).toBeLessThan(paths.indexOf('/opportunity/campaign/{campaign_id}'));
    expect(paths.indexOf('/billing/gift-cards/issued/{gift_card_id}/activate')).toBeGreaterThan(paths.indexOf('/opportunity/campaign/{campaign_id}'));
  });

  it('describes the payment method record with the contract integer types and the patient_id query parameter', () => {
    const op = doc.paths['/user/patient/payment-methods/create'].post;
    expect(op.parameters).toEqual([expect.objectContaining({ name: 'patient_id', in: 'query', required: true })]);
    const schema = op.responses['200'].content['application/json'].schema;
    expect(schema.properties.accountNumberLast4.type).toEqual(['integer', 'null']);
    expect(schema.properties.routingNumber.type).toEqual(['integer', 'null']);
    expect(schema.properties.type.enum).toEqual(['CARD', 'ACH', 'WALLET_PAY']);
    expect(op.requestBody.content['application/json'].example).toMatchObject({ methodType: 'CARD' });
  });

  it('derives the gift card, payment and merchant account bodies from the selections', () => {
    const card = doc.paths['/billing/gift-cards/issued/{gift_card_id}/activate'].post;
    expect(card.requestBody.required).toBe(false);
    // A body field mapped to its own argument (activateGiftCard(id, sendNotification)), described as the body it is.
    expect(card.requestBody.content['application/json'].schema).toEqual({ type: 'object', properties: { sendNotification: { type: 'boolean', default: true } } });
    expect(card.responses['409']).toBeDefined();
    expect(Object.keys(card.responses['200'].content['application/json'].schema.properties)).toEqual(expect.arrayContaining(['code', 'initialValue', 'currentBalance', 'transactions']));
    const payment = doc.paths['/inventory/members/manual-payment'].post.responses['200'].content['application/json'].schema;
    expect(Object.keys(payment.properties)).toEqual(['paymentId', 'memberId', 'amountCents', 'status', 'failureReason', 'comment', 'createdAt']);
    const accounts = doc.paths['/billing/merchant_accounts'].get.responses['200'].content['application/json'].schema;
    expect(accounts.type).toBe('array');
    expect(Object.keys(accounts.items.properties.locations.items.properties)).toEqual([
      'id', 'isVirtual', 'name', 'addressLineOne', 'addressLineTwo', 'city', 'state', 'zipCode', 'country', 'createdDate', 'partnerLocationId',
    ]);
  });
});
