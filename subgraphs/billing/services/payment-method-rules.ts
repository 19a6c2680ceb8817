import { checkIntRange, isCountryCode, Issues, type IssueLoc } from '../../common/field-rules';
import { checkFreeFormMap } from '../../common/free-form-limits';
import type { PaymentMethodKind } from '../entities/payment-method.entity';
import type { AchInput, BillingContactInput, CardInput, CreatePaymentMethodInput, WalletPayInput } from '../inputs/payment-method.input';
import { findCardData, isAbaRoutingNumber, looksLikeFullNumber } from './card-data-rules';
import { MAX_NAME, MAX_REFERENCE, oneOf, optionalEmail, optionalString, requiredText } from './rules';

/** `methodType` values, as the REST body writes them (any case accepted). */
export const METHOD_TYPES = ['card', 'ach', 'wallet_pay'] as const;
/** `ach.accountHolderType` values. */
export const ACCOUNT_HOLDER_TYPES = ['individual', 'company'] as const;
/** `walletPay.type` values (docs/api.md); stored lower case. */
export const WALLET_TYPES = ['apple_pay', 'google_pay', 'samsung_pay', 'link', 'amazon_pay', 'paypal', 'masterpass', 'visa_checkout'] as const;

const KIND: Record<(typeof METHOD_TYPES)[number], PaymentMethodKind> = { card: 'CARD', ach: 'ACH', wallet_pay: 'WALLET_PAY' };
const FULL_NUMBER = 'full card and account numbers are never accepted: send the processor token (paymentMethodId) and the last 4 digits';
const WALLET_LABEL: Record<string, string> = { apple_pay: 'Apple Pay', google_pay: 'Google Pay', samsung_pay: 'Samsung Pay', link: 'Link', amazon_pay: 'Amazon Pay', paypal: 'PayPal', masterpass: 'Masterpass', visa_checkout: 'Visa Checkout' };

/** A payment method's columns once the body is valid (no patient, no flags). */
export interface PaymentMethodData {
  type: PaymentMethodKind;
  processorPaymentMethodId: string;
  paymentMethodConfigId: string | null;
  fingerprint: string | null;
  brand: string | null;
  last4: string | null;
  expMonth: number | null;
  expYear: number | null;
  accountHolderType: string | null;
  accountNumberLast4: string | null;
  bankName: string | null;
  routingNumber: string | null;
  walletType: string | null;
  description: string | null;
  billingContact: Record<string, string | null> | null;
  metadata: Record<string, unknown> | null;
  processorCreatedAt: Date | null;
  processorUpdatedAt: Date | null;
}

/** Refuses a full number; the value is not echoed back, so it reaches no error body or log. */
const fullNumber = (issues: Issues, loc: IssueLoc) => issues.value(loc, FULL_NUMBER, null);

/** Exactly four digits; a longer number gets the message that full numbers are refused. */
function last4(issues: Issues, loc: IssueLoc, value: string): string {
  const text = value.trim();
  if (looksLikeFullNumber(text)) fullNumber(issues, loc);
  else if (!/^\d{4}$/.test(text)) issues.value(loc, `${loc[loc.length - 1]} must be exactly 4 digits`, value);
  return text;
}

/** A display-only text field that must not be a full number in disguise. */
function displayText(issues: Issues, loc: IssueLoc, value: string | null | undefined, required: boolean): string | null {
  if (typeof value === 'string' && looksLikeFullNumber(value)) {
    fullNumber(issues, loc);
    return null;
  }
  return required ? requiredText(issues, loc, value ?? '', 40) : optionalString(issues, loc, value, MAX_NAME);
}

function checkCard(issues: Issues, at: IssueLoc, card: CardInput, now: Date) {
  const brand = displayText(issues, [...at, 'brand'], card.brand, true);
  const digits = last4(issues, [...at, 'last4'], card.last4);
  const before = issues.list.length;
  checkIntRange(issues, [...at, 'expMonth'], card.expMonth, 1, 12);
  if (card.expYear < 1000 || card.expYear > 9999) issues.value([...at, 'expYear'], 'expYear must be a four-digit year', card.expYear);
  else if (issues.list.length === before) {
    // A card is valid through the last day of its expiry month (UTC).
    const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
    if (card.expYear * 12 + (card.expMonth - 1) < thisMonth) issues.value([...at, 'expYear'], 'the card has expired', card.expYear);
    else if (card.expYear > now.getUTCFullYear() + 50) issues.value([...at, 'expYear'], 'expYear is too far in the future', card.expYear);
  }
  return { brand, last4: digits, expMonth: card.expMonth, expYear: card.expYear };
}

function checkAch(issues: Issues, at: IssueLoc, ach: AchInput) {
  const holder = oneOf(issues, [...at, 'accountHolderType'], ach.accountHolderType, ACCOUNT_HOLDER_TYPES);
  const accountLast4 = last4(issues, [...at, 'accountNumberLast4'], ach.accountNumberLast4);
  const bankName = displayText(issues, [...at, 'bankName'], ach.bankName, true);
  const routing = ach.routingNumber.trim();
  if (looksLikeFullNumber(routing)) fullNumber(issues, [...at, 'routingNumber']);
  else if (!/^\d{9}$/.test(routing)) issues.value([...at, 'routingNumber'], 'routingNumber must be 9 digits', ach.routingNumber);
  else if (!isAbaRoutingNumber(routing)) issues.value([...at, 'routingNumber'], 'routingNumber fails the ABA checksum', ach.routingNumber);
  return { accountHolderType: holder ?? null, accountNumberLast4: accountLast4, bankName, routingNumber: routing };
}

function checkWallet(issues: Issues, at: IssueLoc, wallet: WalletPayInput) {
  const type = oneOf(issues, [...at, 'type'], wallet.type, WALLET_TYPES);
  return {
    walletType: type ?? null,
    brand: displayText(issues, [...at, 'brand'], wallet.brand, false),
    brandDesc: displayText(issues, [...at, 'brandDesc'], wallet.brandDesc, false),
    description: displayText(issues, [...at, 'description'], wallet.description, false),
  };
}

function checkContact(issues: Issues, at: IssueLoc, contact: BillingContactInput): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const key of ['name', 'addressLine1', 'addressLine2', 'city', 'state', 'postalCode'] as const) out[key] = optionalString(issues, [...at, key], contact[key]);
  const country = optionalString(issues, [...at, 'country'], contact.country, 2);
  if (country !== null && !isCountryCode(country)) issues.value([...at, 'country'], 'country must be an ISO 3166-1 alpha-2 code, e.g. US', contact.country);
  out.country = country?.toUpperCase() ?? null;
  out.email = optionalEmail(issues, [...at, 'email'], contact.email);
  out.phone = optionalString(issues, [...at, 'phone'], contact.phone, 40);
  return out;
}

/** A reference field (token, fingerprint, config id): trimmed, no full numbers. */
function reference(issues: Issues, loc: IssueLoc, value: string | null | undefined, required: boolean): string | null {
  if (typeof value === 'string' && looksLikeFullNumber(value)) {
    fullNumber(issues, loc);
    return null;
  }
  return required ? requiredText(issues, loc, value ?? '', MAX_REFERENCE) : optionalString(issues, loc, value, MAX_REFERENCE);
}

/** The object an issue of the wrong method type points at. */
function notAllowed(issues: Issues, loc: IssueLoc, methodType: string, value: unknown): void {
  issues.value(loc, `${loc[loc.length - 1]} is not accepted when methodType is ${methodType}`, value);
}

/**
 * Checks a create body against contract part 2 and issue 4, listing every problem at once: the
 * method type's own object is required (a wallet may also describe its card), the other types'
 * objects are refused, and nothing may carry a full card or account number.
 */
export function validatePaymentMethod(input: CreatePaymentMethodInput, now = new Date(), at: IssueLoc = ['input']): PaymentMethodData {
  const issues = new Issues();
  const loc = (...path: (string | number)[]) => [...at, ...path];
  const processorPaymentMethodId = reference(issues, loc('paymentMethodId'), input.paymentMethodId, true) ?? '';
  const paymentMethodConfigId = reference(issues, loc('paymentMethodConfigId'), input.paymentMethodConfigId, false);
  const fingerprint = reference(issues, loc('fingerprint'), input.fingerprint, false);
  const methodType = oneOf(issues, loc('methodType'), input.methodType, METHOD_TYPES);
  const missing = (name: string) => issues.add({ type: 'missing', loc: loc(name), msg: 'Field required', input: null });

  const card = input.card ? checkCard(issues, loc('card'), input.card, now) : null;
  const ach = input.ach ? checkAch(issues, loc('ach'), input.ach) : null;
  const wallet = input.walletPay ? checkWallet(issues, loc('walletPay'), input.walletPay) : null;
  if (methodType === 'card' && !input.card) missing('card');
  if (methodType === 'ach' && !input.ach) missing('ach');
  if (methodType === 'wallet_pay' && !input.walletPay) missing('walletPay');
  if (methodType && methodType !== 'card' && methodType !== 'wallet_pay' && input.card) notAllowed(issues, loc('card'), methodType, input.card);
  if (methodType && methodType !== 'ach' && input.ach) notAllowed(issues, loc('ach'), methodType, input.ach);
  if (methodType && methodType !== 'wallet_pay' && input.walletPay) notAllowed(issues, loc('walletPay'), methodType, input.walletPay);

  const billingContact = input.billingContact ? checkContact(issues, loc('billingContact'), input.billingContact) : null;
  let metadata: Record<string, unknown> | null = null;
  if (input.metadata !== undefined && input.metadata !== null) {
    // Card-number keys (`cvv`, `cardNumber`) first; card numbers in keys and values were refused before the resolver ran.
    const found = findCardData(input.metadata);
    if (found) fullNumber(issues, loc('metadata', ...found));
    else metadata = checkFreeFormMap(issues, loc('metadata'), input.metadata, 'strings') ?? null;
  }
  issues.throwIfAny();

  const type = KIND[methodType!];
  const brand = wallet?.brand ?? card?.brand ?? null;
  const description =
    type === 'CARD' ? `${brand} ending in ${card!.last4}`
    : type === 'ACH' ? `${ach!.bankName} account ending in ${ach!.accountNumberLast4}`
    : (wallet!.description ?? wallet!.brandDesc ?? `${WALLET_LABEL[wallet!.walletType!]}${card ? ` (${card.brand} ending in ${card.last4})` : ''}`);
  return {
    type,
    processorPaymentMethodId,
    paymentMethodConfigId,
    fingerprint,
    brand,
    // An ACH method's last4 is its account's, so lists can show one "ending in" for every type.
    last4: card?.last4 ?? ach?.accountNumberLast4 ?? null,
    expMonth: card?.expMonth ?? null,
    expYear: card?.expYear ?? null,
    accountHolderType: ach?.accountHolderType ?? null,
    accountNumberLast4: ach?.accountNumberLast4 ?? null,
    bankName: ach?.bankName ?? null,
    routingNumber: ach?.routingNumber ?? null,
    walletType: wallet?.walletType ?? null,
    description,
    billingContact,
    metadata,
    processorCreatedAt: input.createdAt ?? null,
    processorUpdatedAt: input.updatedAt ?? null,
  };
}
