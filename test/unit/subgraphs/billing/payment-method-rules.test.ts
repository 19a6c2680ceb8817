import { ValidationError } from '../../../../schema/errors';
import { findCardData, isAbaRoutingNumber, looksLikeCardNumber, looksLikeFullNumber, passesLuhn } from '../../../../subgraphs/billing/services/card-data-rules';
import { validatePaymentMethod } from '../../../../subgraphs/billing/services/payment-method-rules';

const NOW = new Date('2026-12-03T12:00:00Z');
const CARD = { paymentMethodId: 'pm_123', methodType: 'card', card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 } };

function issues(input: Record<string, unknown>): { type: string; loc: (string | number)[]; msg: string; input?: unknown }[] {
  try {
    validatePaymentMethod(input as never, NOW);
  } catch (error) {
    if (error instanceof ValidationError) return error.issues.map(({ type, loc, msg, input: value }) => ({ type, loc, msg, input: value }));
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('card data rules', () => {
  it('checks ABA routing numbers with the 3-7-1 checksum', () => {
    for (const good of ['021000021', '011000015', '110000000', '122105155']) expect(isAbaRoutingNumber(good)).toBe(true);
    for (const bad of ['021000022', '12345678', '1234567890', '02100002a']) expect(isAbaRoutingNumber(bad)).toBe(false);
  });

  it('recognises full numbers (12-19 digits, separators allowed) and Luhn-valid card numbers', () => {
    expect(looksLikeFullNumber('4242 4242 4242 4242')).toBe(true);
    expect(looksLikeFullNumber('000123456789')).toBe(true);
    expect(looksLikeFullNumber('12345678901')).toBe(false);
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(looksLikeCardNumber('4242-4242-4242-4242')).toBe(true);
    expect(looksLikeCardNumber('202612010002')).toBe(false);
  });

  it('finds card data in free-form JSON by key or by value, without returning it', () => {
    expect(findCardData({ order: 'A-17', nested: { list: [1, '4000 0566 5566 5556'] } })).toEqual(['nested', 'list', 1]);
    expect(findCardData({ a: { Card_Number: 'x' } })).toEqual(['a', 'Card_Number']);
    expect(findCardData({ cvv: 123 })).toEqual(['cvv']);
    expect(findCardData({ invoice: '202612010002', amount: 4242 })).toBeNull();
  });
});

describe('validatePaymentMethod', () => {
  it('accepts a card and describes it', () => {
    const data = validatePaymentMethod({ ...CARD, methodType: 'CARD', fingerprint: 'fp1' } as never, NOW);
    expect(data).toMatchObject({ type: 'CARD', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, description: 'visa ending in 4242', fingerprint: 'fp1' });
  });

  it('accepts ACH and a wallet (with its card) in any case', () => {
    const ach = validatePaymentMethod({ paymentMethodId: 'pm_ach', methodType: 'Ach', ach: { accountHolderType: 'Company', accountNumberLast4: '0042', bankName: 'First Bank', routingNumber: '021000021' } } as never, NOW);
    expect(ach).toMatchObject({ type: 'ACH', accountHolderType: 'company', accountNumberLast4: '0042', last4: '0042', routingNumber: '021000021', description: 'First Bank account ending in 0042' });
    const wallet = validatePaymentMethod({ paymentMethodId: 'pm_w', methodType: 'WALLET_PAY', walletPay: { type: 'Apple_Pay' }, card: { brand: 'visa', last4: '1111', expMonth: 1, expYear: 2027 } } as never, NOW);
    expect(wallet).toMatchObject({ type: 'WALLET_PAY', walletType: 'apple_pay', brand: 'visa', last4: '1111', description: 'Apple Pay (visa ending in 1111)' });
  });

  it('accepts a card expiring this month, refuses last month', () => {
    expect(() => validatePaymentMethod({ ...CARD, card: { ...CARD.card, expMonth: 12, expYear: 2026 } } as never, NOW)).not.toThrow();
    expect(issues({ ...CARD, card: { ...CARD.card, expMonth: 11, expYear: 2026 } })).toEqual([
      { type: 'value_error', loc: ['input', 'card', 'expYear'], msg: 'Value error, the card has expired', input: 2026 },
    ]);
  });

  it('lists every card problem at once', () => {
    expect(issues({ ...CARD, card: { brand: '', last4: '42', expMonth: 13, expYear: 30 } }).map((i) => [i.type, i.loc.join('.')])).toEqual([
      ['value_error', 'input.card.brand'],
      ['value_error', 'input.card.last4'],
      ['less_than_equal', 'input.card.expMonth'],
      ['value_error', 'input.card.expYear'],
    ]);
  });

  it('refuses full card and account numbers anywhere, never echoing them', () => {
    const found = issues({
      paymentMethodId: '4242424242424242',
      methodType: 'card',
      card: { brand: 'visa', last4: '4242 4242 4242 4242', expMonth: 1, expYear: 2030 },
      metadata: { note: 'ok', cardNumber: 'whatever' },
    });
    expect(found.map((i) => i.loc.join('.'))).toEqual(['input.paymentMethodId', 'input.card.last4', 'input.metadata.cardNumber']);
    for (const issue of found) expect(issue).toMatchObject({ type: 'value_error', input: null, msg: expect.stringContaining('full card and account numbers are never accepted') });
    const ach = issues({ paymentMethodId: 'pm', methodType: 'ach', ach: { accountHolderType: 'individual', accountNumberLast4: '000123456789', bankName: 'B', routingNumber: '021000021' } });
    expect(ach).toEqual([{ type: 'value_error', loc: ['input', 'ach', 'accountNumberLast4'], msg: expect.stringContaining('never accepted'), input: null }]);
  });

  it('requires the object of the method type and refuses the others', () => {
    expect(issues({ paymentMethodId: 'pm', methodType: 'ach', card: CARD.card })).toEqual([
      { type: 'missing', loc: ['input', 'ach'], msg: 'Field required', input: null },
      { type: 'value_error', loc: ['input', 'card'], msg: 'Value error, card is not accepted when methodType is ach', input: CARD.card },
    ]);
    expect(issues({ paymentMethodId: 'pm', methodType: 'paypal' })).toEqual([
      { type: 'enum', loc: ['input', 'methodType'], msg: "Input should be 'card', 'ach' or 'wallet_pay'", input: 'paypal' },
    ]);
  });

  it('checks ACH fields: holder type, 4 digits, bank name, ABA checksum', () => {
    expect(issues({ paymentMethodId: 'pm', methodType: 'ach', ach: { accountHolderType: 'person', accountNumberLast4: '12a4', bankName: ' ', routingNumber: '021000022' } }).map((i) => [i.type, i.loc.join('.'), i.msg])).toEqual([
      ['enum', 'input.ach.accountHolderType', "Input should be 'individual' or 'company'"],
      ['value_error', 'input.ach.accountNumberLast4', 'Value error, accountNumberLast4 must be exactly 4 digits'],
      ['value_error', 'input.ach.bankName', 'Value error, bankName must be 1 to 40 characters'],
      ['value_error', 'input.ach.routingNumber', 'Value error, routingNumber fails the ABA checksum'],
    ]);
  });

  it('checks the wallet type, the billing contact and that metadata is an object', () => {
    expect(issues({ paymentMethodId: 'pm', methodType: 'wallet_pay', walletPay: { type: 'venmo' }, billingContact: { email: 'nope', country: 'XX' }, metadata: [1] }).map((i) => [i.type, i.loc.join('.')])).toEqual([
      ['enum', 'input.walletPay.type'],
      ['value_error', 'input.billingContact.country'],
      ['value_error', 'input.billingContact.email'],
      ['dict_type', 'input.metadata'],
    ]);
  });
});
